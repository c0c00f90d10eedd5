/**
 * Highlighting for the generator's manifest, loaded on the first change: tokenized in a Web Worker, so a long
 * manifest never blocks input. Where a worker cannot start (no Worker, or a policy that refuses it), the
 * highlighter runs on the main thread instead, in slices of a few lines (highlight.ts).
 */
import type { HighlightReply, HighlightRequest } from './highlight-worker.ts';

interface Waiting {
  code: string;
  resolve: (lines: string[]) => void;
  reject: (error: Error) => void;
}

let worker: Worker | null | undefined;
let nextId = 0;
const waiting = new Map<number, Waiting>();

/** Highlight on the main thread, in slices. */
function highlightHere(code: string): Promise<string[]> {
  return import('./highlight.ts').then((m) => m.highlightLines(code));
}

/** The worker, started on first use; null when it cannot start or has failed. */
function startWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = new Worker(new URL('./highlight-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    worker = null;
    return worker;
  }
  worker.onmessage = (event: MessageEvent<HighlightReply>) => {
    const reply = event.data;
    const entry = waiting.get(reply.id);
    if (!entry) return;
    waiting.delete(reply.id);
    if ('lines' in reply) entry.resolve(reply.lines);
    else entry.reject(new Error(reply.error));
  };
  worker.onerror = () => {
    // A worker that cannot load: stop using it and answer what is waiting on the main thread.
    worker?.terminate();
    worker = null;
    for (const [id, entry] of waiting) {
      waiting.delete(id);
      highlightHere(entry.code).then(entry.resolve, entry.reject);
    }
  };
  return worker;
}

/** Each line of the manifest as highlighted HTML (highlight.ts's `highlightLines`), tokenized off the main thread where possible. */
export function highlightManifestLines(code: string): Promise<string[]> {
  const w = startWorker();
  if (!w) return highlightHere(code);
  const id = nextId++;
  return new Promise<string[]>((resolve, reject) => {
    waiting.set(id, { code, resolve, reject });
    w.postMessage({ id, code } satisfies HighlightRequest);
  });
}
