/**
 * Entry of the installable package (built by scripts/build-cli.ts into CommonJS): turn away a Node older than the
 * package needs, enable Node's compile cache in a folder of the user's own (./compile-cache.ts), then load the
 * command's bundle and run it. Each command has its own bundle (the CLI with that command's code,
 * `HITLESS_COMMAND_BUNDLES`), so a command loads this file and one other; --help, --version and unknown commands load
 * `main.cjs`. The cache holds what Node compiled of each bundle when it loaded it, so a start after the first skips
 * that parse and compile (the functions V8 compiles lazily, on their first call, are compiled again each start).
 */
import { compileCacheFolder } from './compile-cache.ts';

/** Command name → its bundle's name, written in by the build. */
declare const HITLESS_COMMAND_BUNDLES: Record<string, string>;

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `hitless needs Node >= 22.12 (this is ${process.version}); install a newer Node (https://nodejs.org) and run it again.\n`,
  );
  process.exit(2);
}
const cacheDir = compileCacheFolder();
if (cacheDir !== undefined) process.getBuiltinModule('node:module').enableCompileCache(cacheDir);

const argv = process.argv.slice(2);
const command = argv[0] ?? '';
const bundle = Object.hasOwn(HITLESS_COMMAND_BUNDLES, command) ? HITLESS_COMMAND_BUNDLES[command] : 'main';
// require(), not import(): the entry and the bundles are CommonJS, which Node loads without its ES module loader.
// The name is built at run time, so that esbuild leaves the bundle to Node instead of bundling it into the entry.
const load = process.getBuiltinModule('node:module').createRequire(import.meta.url);
const { main } = load(`./${bundle}.cjs`) as { main: (args: string[]) => Promise<number> };
// No top-level await (CommonJS). A command that throws ends the process as an unhandled rejection does.
void main(argv).then((code) => {
  process.exitCode = code;
});
