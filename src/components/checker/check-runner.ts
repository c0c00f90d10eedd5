/**
 * Run checks in the checker's Web Worker. Only the latest request matters: a new one while an older check is still
 * running replaces the worker, so a long check of text already edited away never delays the next. Where a worker
 * cannot start (no Worker, or a policy that refuses it), checks run on the page instead, as before.
 */
import type { Profiles } from '../../drain/profiles.ts';
import type { CheckReply, CheckRequest } from './check-messages.ts';

/** Checks for one set of profiles; `run` resolves to undefined for a request a newer one replaced. */
export interface CheckRunner {
  run(text: string, settings: Record<string, string>): Promise<CheckReply | undefined>;
  dispose(): void;
}

/** Start checking with these profiles (the worker starts on the first request). */
export function createCheckRunner(profiles: Profiles): CheckRunner {
  let worker: Worker | undefined;
  let noWorker = typeof Worker === 'undefined';
  let pending: { request: CheckRequest; resolve: (reply: CheckReply | undefined) => void } | undefined;
  let nextId = 1;

  const onPage = async (request: CheckRequest) => (await import('./check-messages.ts')).answerCheck(request, profiles);

  const settle = (reply: CheckReply | undefined) => {
    if (reply && reply.id !== pending?.request.id) return; // the answer to a request a newer one replaced
    const waiting = pending;
    pending = undefined;
    waiting?.resolve(reply);
  };

  const stop = () => {
    worker?.terminate();
    worker = undefined;
  };

  const start = (): Worker | undefined => {
    if (worker || noWorker) return worker;
    try {
      const started = new Worker(new URL('./check-worker.ts', import.meta.url), { type: 'module', name: 'hitless-checker' });
      started.onmessage = (event: MessageEvent<CheckReply>) => {
        if (pending && event.data.id === pending.request.id) settle(event.data);
      };
      // The worker could not load (or threw outside a request): check on the page from now on.
      started.onerror = (event) => {
        event.preventDefault();
        noWorker = true;
        stop();
        const waiting = pending;
        if (waiting) onPage(waiting.request).then(settle, (error: Error) => settle({ id: waiting.request.id, failed: error.message }));
      };
      started.postMessage({ profiles });
      worker = started;
    } catch {
      noWorker = true;
    }
    return worker;
  };

  return {
    run(text, settings) {
      if (pending) {
        // An older check is still running in the worker: drop it with its worker.
        stop();
        settle(undefined);
      }
      const request: CheckRequest = { id: nextId++, text, settings };
      return new Promise((resolve) => {
        pending = { request, resolve };
        const running = start();
        if (running) running.postMessage(request);
        else onPage(request).then(settle, (error: Error) => settle({ id: request.id, failed: error.message }));
      });
    },
    dispose() {
      stop();
      settle(undefined);
    },
  };
}
