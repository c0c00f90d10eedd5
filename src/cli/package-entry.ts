/**
 * Entry of the installable package (built by scripts/build-cli.ts into CommonJS): run the CLI with the process's
 * arguments. Each command has its own bundle (the CLI with that command's code, `HITLESS_COMMAND_BUNDLES`), so a
 * command loads this file and one other; --help, --version and unknown commands load `main.cjs`. The bundle is
 * loaded with the code cache its last run left (./bundle-loader.ts), and a missing or refused cache is written once
 * the command has run, so that the functions it used start compiled next time.
 */
import { fileURLToPath } from 'node:url';
import { cacheFolder, loadBundle } from './bundle-loader.ts';

/** Command name → its bundle's name, written in by the build. */
declare const HITLESS_COMMAND_BUNDLES: Record<string, string>;
/** Bundle name → a hash of its content, written in by the build: names the bundle's code cache. */
declare const HITLESS_BUNDLE_TAGS: Record<string, string>;

const argv = process.argv.slice(2);
const command = argv[0] ?? '';
const bundle = Object.hasOwn(HITLESS_COMMAND_BUNDLES, command) ? HITLESS_COMMAND_BUNDLES[command] : 'main';
const loaded = loadBundle<{ main: (args: string[]) => Promise<number> }>(
  fileURLToPath(new URL(`./${bundle}.cjs`, import.meta.url)),
  cacheFolder(),
  HITLESS_BUNDLE_TAGS[bundle],
);
// No top-level await: the entry is CommonJS. A command that throws ends the process as an unhandled rejection does.
void loaded.exports.main(argv).then((code) => {
  process.exitCode = code;
  // A usage error runs a sliver of the command: its cache would leave the rest to compile on every later start.
  if (code !== 2) loaded.saveCache();
});
