/**
 * How the CLI ends when its output goes nowhere. A closed pipe (`hitless inputs | head -1`) ends the process
 * quietly with 141, the status of a process killed by SIGPIPE, as `yes | head -1` does; any other write error
 * (`> /dev/full`) ends it with 74 (EX_IOERR) and one line on stderr when stderr still works. Neither is 1, which
 * `hitless check` uses for findings, nor a stack trace.
 */

/** Exit status for a closed output pipe: 128 + SIGPIPE (13). */
export const EXIT_CLOSED_PIPE = 141;
/** Exit status for any other output error: EX_IOERR from sysexits.h. */
export const EXIT_OUTPUT_ERROR = 74;

let guarded = false;

/** Make write errors on stdout and stderr end the process quietly with the statuses above. */
export function endQuietlyOnOutputErrors(): void {
  if (guarded) return;
  guarded = true;
  for (const [name, stream] of [
    ['stdout', process.stdout],
    ['stderr', process.stderr],
  ] as const) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(EXIT_CLOSED_PIPE);
      if (name === 'stdout') {
        try {
          process.stderr.write(`hitless: cannot write the output: ${error.message}\n`);
        } catch {
          // stderr is gone too: the status says it.
        }
      }
      process.exit(EXIT_OUTPUT_ERROR);
    });
  }
}
