/**
 * No stack trace reaches a user: an error the CLI did not expect (a bug, or a case it does not handle yet) ends the
 * run with one line naming the command and the cause, and exit 70 (EX_SOFTWARE from sysexits.h), distinct from the
 * codes that mean something about the input (1 findings or lost requests, 2 unusable input). HITLESS_DEBUG=1 adds
 * the stack for a bug report.
 */

/** Exit status for an internal error: EX_SOFTWARE. */
export const EXIT_INTERNAL = 70;

/** The one line for an unexpected error in `command`: its first line of message, at most 300 characters. */
function internalErrorLine(command: string, error: unknown): string {
  const raw = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const first = raw.split('\n')[0].slice(0, 300);
  return `hitless ${command}: internal error (${first}); this is a bug in hitless, please report it with the command you ran`;
}

/** Print the line (and the stack when HITLESS_DEBUG is set) and return EXIT_INTERNAL. */
export function reportInternalError(command: string, error: unknown): number {
  try {
    process.stderr.write(`${internalErrorLine(command, error)}\n`);
    if (process.env.HITLESS_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  } catch {
    // stderr is gone: the status says it.
  }
  return EXIT_INTERNAL;
}

let watching = false;

/**
 * End the process with the one line and EXIT_INTERNAL for an error thrown outside the command's promise (an
 * 'error' event nobody listens to, a rejection nobody awaits), which Node would print with its stack.
 */
export function catchStrayErrors(command: string): void {
  if (watching) return;
  watching = true;
  const end = (error: unknown) => process.exit(reportInternalError(command, error));
  process.on('uncaughtException', end);
  process.on('unhandledRejection', end);
}
