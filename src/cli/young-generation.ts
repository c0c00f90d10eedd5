/**
 * Keep V8's young generation from growing through a long check. V8 doubles the young generation each time as many
 * bytes have survived its collections since the last doubling as it holds, so a long run grows it to its maximum
 * (64 MiB a semi-space, 134 MB committed) however little it keeps for good: a check of 10,000 documents that holds
 * 40 MB reached it in some runs and not in others, and peak RSS was 160 or 270 MB. Once the young generation holds
 * 16 MiB (8 MiB a semi-space, what a check of 2,000 documents grows it to), its growth factor is set to 1: V8 reads
 * that flag each time it grows the generation, so setting it while running takes effect (unlike
 * --max-semi-space-size). Peak RSS at 10,000 documents was then 133–136 MB (at 32 MiB, 162–188 MB), for no more CPU
 * time: a collection of the smaller generation has as little to keep. A flag the user gave Node (NODE_OPTIONS, the
 * command line) is left as given.
 */
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The young generation's size (both semi-spaces) past which it stops growing: 8 MiB a semi-space. */
const BOUND_BYTES = 16 * 1024 * 1024;

/** V8's own growth factor (`node --v8-options`), restored when the check is done. */
const DEFAULT_FACTOR = 2;

const FLAG = /semi[-_]space[-_]growth[-_]factor/;

/** A bound on the young generation: `poll` between batches (it sets the flag once the bound is reached), `release`. */
export interface YoungGenerationBound {
  poll(): void;
  release(): void;
}

/** Start bounding the young generation (nothing, when the user set the growth factor). */
export function boundYoungGeneration(): YoungGenerationBound {
  const given = process.execArgv.some((a) => FLAG.test(a)) || FLAG.test(process.env.NODE_OPTIONS ?? '');
  let set = false;
  return {
    poll() {
      if (given || set) return;
      const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      if (!young || young.space_size < BOUND_BYTES) return;
      setFlagsFromString('--semi-space-growth-factor=1');
      set = true;
    },
    release() {
      if (set) setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_FACTOR}`);
      set = false;
    },
  };
}
