/** Words for a POSIX shell, as the forms write them into a command line or a comment the reader copies. */

/** One word for a POSIX shell: as is when it has only safe characters, else single-quoted. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
