/**
 * Entry of the installable package (built by scripts/build-cli.ts): run the CLI with the process's arguments.
 * On Node >= 22.1 it first turns on Node's on-disk compile cache (`module.enableCompileCache`, the same cache
 * TypeScript's `tsc` uses: `$NODE_COMPILE_CACHE`, else a folder in the system's temporary directory;
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off), so a second run does not compile the CLI's code again. The CLI is
 * imported after that, dynamically, so that its modules are compiled with the cache on.
 */
import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
