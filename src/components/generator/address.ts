/**
 * The generator's address follows its inputs without costing the keystroke: the query is written with
 * `history.replaceState` once the browser is idle after a change (at most 250 ms later), and at once if the page is
 * being left. replaceState forces the pending style and layout and updates the session history; on the keystroke's
 * path it cost 4-18 ms in Chromium before the new manifest could paint.
 */
import { useEffect } from 'preact/hooks';

/** The longest the address may lag the inputs, in milliseconds. */
const ADDRESS_LAG_MAX_MS = 250;

/** Run `write` when the browser is idle (or after `ADDRESS_LAG_MAX_MS`); returns a cancel function. */
function whenIdle(write: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(write, { timeout: ADDRESS_LAG_MAX_MS });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(write, 50);
  return () => window.clearTimeout(handle);
}

/** Write `?query` into the address (keeping the path and the hash) unless it is there already. */
function writeQuery(query: string): void {
  const { pathname, search, hash } = window.location;
  if (search !== `?${query}`) window.history.replaceState(null, '', `${pathname}?${query}${hash}`);
}

/** Keep the address's query equal to `query`, soon after it changes; null leaves the address as it is. */
export function useAddressFollows(query: string | null): void {
  useEffect(() => {
    if (query === null) return;
    let written = false;
    const write = () => {
      if (written) return;
      written = true;
      writeQuery(query);
    };
    const cancel = whenIdle(write);
    window.addEventListener('pagehide', write);
    return () => {
      cancel();
      window.removeEventListener('pagehide', write);
    };
  }, [query]);
}
