/**
 * Entry of the installable package (built by scripts/build-cli.ts): run the CLI with the process's arguments.
 * On Node >= 22.1 it first turns on Node's on-disk compile cache (`module.enableCompileCache`, the same cache
 * TypeScript's `tsc` uses: `$NODE_COMPILE_CACHE`, else a folder in the system's temporary directory;
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off), so a second run does not compile the CLI's code again. The CLI is
 * imported after that, dynamically, so that its modules are compiled with the cache on.
 * Each command has its own bundle (the CLI with that command's code, `HITLESS_COMMAND_BUNDLES`), so a command loads
 * this file and one other; --help, --version and unknown commands load `main.mjs`.
 */
import module from 'node:module';

/** Command name → its bundle's name, written in by the build. */
declare const HITLESS_COMMAND_BUNDLES: Record<string, string>;

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const argv = process.argv.slice(2);
const command = argv[0] ?? '';
const bundle = Object.hasOwn(HITLESS_COMMAND_BUNDLES, command) ? HITLESS_COMMAND_BUNDLES[command] : 'main';
const { main } = (await import(new URL(`./${bundle}.mjs`, import.meta.url).href)) as {
  main: (args: string[]) => Promise<number>;
};
process.exitCode = await main(argv);
