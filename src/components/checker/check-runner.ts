/**
 * Run checks in the checker's Web Worker. Only the latest request matters: the answer to an older one is dropped, and
 * a new request while an older check has run for over two seconds replaces the worker, so a long check of text
 * already edited away never delays the next (a shorter one finishes first: starting a worker costs more). Where a
 * worker cannot start (no Worker, or a policy that refuses it), checks run on the page instead, as before.
 */
import type { Profiles } from '../../facts/profiles.ts';
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
  /** When the worker was last given a request and had not answered it yet (ms, performance.now()). */
  let busySince: number | undefined;
  /** Whether the worker has answered once: until then it may still be loading, and a new one would load again. */
  let answered = false;
  let nextId = 1;

  const settle = (reply: CheckReply | undefined) => {
    if (reply && reply.id !== pending?.request.id) return; // the answer to a request a newer one replaced
    const waiting = pending;
    pending = undefined;
    waiting?.resolve(reply);
  };
  const onPage = (request: CheckRequest) =>
    import('./check-messages.ts')
      .then((m) => m.answerCheck(request, profiles))
      .then(settle, (error: Error) => settle({ id: request.id, failed: error.message }));

  const stop = () => {
    worker?.terminate();
    worker = undefined;
    busySince = undefined;
    answered = false;
  };

  const start = (): Worker | undefined => {
    if (worker || noWorker) return worker;
    try {
      const started = new Worker(new URL('./check-worker.ts', import.meta.url), {
        type: 'module',
        name: 'hitless-checker',
      });
      started.onmessage = (event: MessageEvent<CheckReply>) => {
        answered = true;
        if (event.data.id === nextId - 1) busySince = undefined; // it answered the latest request: idle again
        if (pending && event.data.id === pending.request.id) settle(event.data);
      };
      // The worker could not load (or threw outside a request): check on the page from now on.
      started.onerror = (event) => {
        event.preventDefault();
        noWorker = true;
        stop();
        if (pending) void onPage(pending.request);
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
        // An older check is still running: a long one goes with its worker; a short one finishes, unread.
        if (answered && busySince !== undefined && performance.now() - busySince > 2000) stop();
        settle(undefined);
      }
      const request: CheckRequest = { id: nextId++, text, settings };
      return new Promise((resolve) => {
        pending = { request, resolve };
        const running = start();
        if (running) {
          busySince ??= performance.now();
          running.postMessage(request);
        } else void onPage(request);
      });
    },
    dispose() {
      stop();
      settle(undefined);
    },
  };
}
