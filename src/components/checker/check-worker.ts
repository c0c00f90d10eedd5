/**
 * The checker's Web Worker: checks and fixes the manifest off the page's main thread, so a large paste never
 * blocks typing or scrolling. It receives the profiles once, then one request per text and settings, and answers
 * with what the page shows (the report and the fixed manifest; never the parsed YAML, which stays here).
 */
import type { Profiles } from '../../facts/profiles.ts';
import { answerCheck, type CheckReply, type CheckRequest } from './check-messages.ts';

let profiles: Profiles | undefined;

self.onmessage = (event: MessageEvent<{ profiles: Profiles } | CheckRequest>) => {
  const data = event.data;
  if ('profiles' in data) {
    profiles = data.profiles;
    return;
  }
  if (!profiles) throw new Error('check worker: a request came before the profiles');
  try {
    self.postMessage(answerCheck(data, profiles));
  } catch (error) {
    self.postMessage({ id: data.id, failed: (error as Error).message } satisfies CheckReply);
  }
};
