/** Read the output forms' facts (content/outputs/) from disk (Node only): the CLI and the tests use this. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHART_FACTS_FILE, LWS_FACTS_FILE, outputFactsFromFiles } from './profile-files.ts';
import type { OutputFacts } from './profiles.ts';
import { CONTENT_DIR } from './read-files.ts';

/** Load and validate content/outputs/*.yaml under `contentDir` (default: the repository's `content/`). */
export function readOutputFacts(contentDir: string = CONTENT_DIR): OutputFacts {
  const file = (name: string) => ({ path: join(contentDir, name), text: readFileSync(join(contentDir, name), 'utf8') });
  return outputFactsFromFiles(file(CHART_FACTS_FILE), file(LWS_FACTS_FILE));
}
