/**
 * Build the installable CLI package into `cli-dist/` (or the folder given as the first argument):
 * a small entry and one self-contained bundle per command, built with esbuild for Node >= 22.12 (no type stripping
 * at run time, no dependencies to install). The gateway and model-server data and the request defaults are read and
 * validated here, at build time, and embedded as a JavaScript module, so a command parses no YAML data at startup.
 * `npm run pack:cli` packs it.
 *
 *   cli-dist/package.json         name, version, bin, engines; no dependencies
 *   cli-dist/hitless-config.schema.json  the JSON Schema of .hitless.yaml (scripts/gen-schemas.ts), for editors
 *   cli-dist/bin/hitless.cjs      the entry: turns away an older Node, enables Node's compile cache in a folder of
 *                                 the user's own (src/cli/compile-cache.ts), loads the command's bundle and runs it
 *   cli-dist/bin/<command>.cjs    the CLI with one command's code (generate.cjs also runs `inputs`, check.cjs `rules`); main.cjs
 *                                 answers --help, --version and unknown commands
 *
 * The drain lab is left out: it starts HAProxy and the stand-ins from the repository's sources, so `hitless lab`
 * in the package says to run it from a checkout.
 */
import { build, type Plugin } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readProfiles } from '../src/facts/read-files.ts';
import { configSchemaText } from './gen-schemas.ts';
import { readOutputFacts } from '../src/facts/read-output-files.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = resolve(process.argv[2] ?? join(ROOT, 'cli-dist'));

/**
 * A value as a JavaScript expression that evaluates to an equal value: plain objects and arrays, strings, numbers,
 * booleans, null, properties set to undefined (kept, since readers test `'key' in`), and regular expressions (the
 * release tag patterns). Anything else is refused, so the embedded data cannot silently differ from what was read.
 */
function jsLiteral(value: unknown, path = 'profiles'): string {
  if (value === undefined) return 'void 0';
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${path}: ${value} cannot be embedded`);
    return Object.is(value, -0) ? '-0' : String(value);
  }
  if (value instanceof RegExp) return `new RegExp(${JSON.stringify(value.source)}, ${JSON.stringify(value.flags)})`;
  if (Array.isArray(value)) return `[${value.map((v, i) => jsLiteral(v, `${path}[${i}]`)).join(',')}]`;
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsLiteral(v, `${path}.${k}`)}`)
      .join(',')}}`;
  }
  throw new Error(`${path}: a ${typeof value} (${Object.prototype.toString.call(value)}) cannot be embedded`);
}

/**
 * The profiles as a literal whose serving controllers are made on first use: only `check` reads them, and a
 * function's body is not run (nor fully compiled) until it is called, so `generate` does not pay for them at start.
 */
function embeddedProfiles(): string {
  const { controllers, ...rest } = readProfiles();
  const eager = jsLiteral(rest);
  return `(() => { let controllers; return { ${eager.slice(1, -1)}, get controllers() { return (controllers ??= ${jsLiteral(controllers, 'profiles.controllers')}); } }; })()`;
}

/**
 * The profiles and the output forms' facts, read and validated now from content/ (a bad data file fails the build),
 * replace the readers that parse the YAML files at run time: `readProfiles()` and `readOutputFacts()` in the package
 * return the embedded data.
 */
const embedProfiles: Plugin = {
  name: 'embed-profiles',
  setup(b) {
    b.onLoad({ filter: /src[\\/]facts[\\/]read-files\.ts$/ }, () => ({
      contents: `/** The profiles, read from content/ and validated when the package was built (scripts/build-cli.ts). */
const PROFILES = ${embeddedProfiles()};
/** The embedded profiles (the package reads no data files). */
export function readProfiles() {
  return PROFILES;
}`,
      loader: 'js',
    }));
    b.onLoad({ filter: /src[\\/]facts[\\/]read-output-files\.ts$/ }, () => ({
      contents: `/** The output forms' facts, read from content/outputs/ and validated when the package was built. */
const OUTPUT_FACTS = ${jsLiteral(readOutputFacts(), 'outputFacts')};
/** The embedded output facts (the package reads no data files). */
export function readOutputFacts() {
  return OUTPUT_FACTS;
}`,
      loader: 'js',
    }));
  },
};

/**
 * yaml's ES module build (the one browsers get) instead of its CommonJS Node build: same code, but loaded as one
 * module without a CommonJS wrapper and its many small files' require calls, which is faster at startup.
 */
const yamlAsModule: Plugin = {
  name: 'yaml-as-module',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: join(ROOT, 'node_modules/yaml/browser/index.js') }));
  },
};

/** The lab runs from a checkout; in the package its command explains that instead of failing on missing sources. */
const leaveOutLab: Plugin = {
  name: 'leave-out-lab',
  setup(b) {
    b.onResolve({ filter: /^\.\/lab\.ts$/ }, (args) =>
      args.importer.includes(join('src', 'cli')) || args.namespace === 'hitless-bundle'
        ? { path: 'lab', namespace: 'hitless-lab' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'hitless-lab' }, () => ({
      contents: `export async function runLab() {
  process.stderr.write('hitless lab runs HAProxy and stand-in model servers from the Hitless sources: run it in a checkout of the repository (npm ci && npm run lab).\\n');
  return 2;
}`,
      loader: 'js',
    }));
  },
};

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  description: string;
  repository?: unknown;
};

/**
 * Each command of src/cli/main.ts and the module it loads (`name: async () => command(await import('./module.ts'), …)`),
 * read from main.ts itself so that a new command cannot be left out of the package: the build fails instead.
 */
function commandModules(): Map<string, string> {
  const source = readFileSync(join(ROOT, 'src/cli/main.ts'), 'utf8');
  const commands = new Map<string, string>();
  for (const m of source.matchAll(/^\s*([a-z][a-z-]*): async \(\) =>[^\n]*?await import\('\.\/([a-z-]+)\.ts'\)/gm))
    commands.set(m[1], m[2]);
  const listed = source.match(/^\s*[a-z][a-z-]*: async \(\) =>/gm)?.length ?? 0;
  if (commands.size === 0 || commands.size !== listed)
    throw new Error(
      `build-cli: read ${commands.size} of ${listed} commands from src/cli/main.ts; update commandModules()`,
    );
  return commands;
}

const COMMAND_MODULES = commandModules();
/** The bundles: one per command module (`inputs` shares generate's), and `main` for --help, --version and typos. */
const BUNDLES = ['main', ...new Set(COMMAND_MODULES.values())];

/**
 * A bundle's entry: main.ts and, statically, the code of its command module (`main`: of version.ts). Each bundle is
 * self-contained (a command reads two files, the entry and its bundle, not a dozen chunks), so main.ts's dynamic
 * imports are resolved inside the bundle: its own command's module and version.ts are bundled (esbuild turns each
 * such import into a call of the already-bundled module), and every other command's module becomes a stub that
 * fails loudly: the entry sends a command only to its own bundle, so reaching one is a bug in the build.
 */
function bundleEntries(bundle: string): Plugin {
  return {
    name: 'bundle-entries',
    setup(b) {
      const commandModules = new Set(COMMAND_MODULES.values());
      b.onResolve({ filter: /^hitless-bundle:/ }, (args) => ({
        path: args.path.slice(15),
        namespace: 'hitless-bundle',
      }));
      b.onLoad({ filter: /.*/, namespace: 'hitless-bundle' }, (args) => ({
        contents: `export { main } from './main.ts';\n${
          args.path === 'main' ? "export { versionLine } from './version.ts';" : `export * from './${args.path}.ts';`
        }\n`,
        resolveDir: join(ROOT, 'src', 'cli'),
        loader: 'js',
      }));
      b.onResolve({ filter: /^\.\/[a-z-]+\.ts$/ }, (args) => {
        const module = args.path.slice(2, -3);
        if (!args.importer.endsWith(join('src', 'cli', 'main.ts')) || !commandModules.has(module)) return undefined;
        if (module === bundle) return undefined;
        return { path: module, namespace: 'hitless-elsewhere' };
      });
      b.onLoad({ filter: /.*/, namespace: 'hitless-elsewhere' }, (args) => ({
        contents: `throw new Error(${JSON.stringify(
          `hitless: internal error: the ${args.path} command's code is in bin/${args.path}.cjs, not in bin/${bundle}.cjs`,
        )});\n`,
        loader: 'js',
      }));
    },
  };
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(join(OUT, 'bin'), { recursive: true });
/** Options the bundles and the entry share: Node 22, minified, the package's version and commands built in. */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  minify: true,
  legalComments: 'linked',
  define: {
    HITLESS_PACKAGE_VERSION: JSON.stringify(pkg.version),
    HITLESS_COMMAND_BUNDLES: JSON.stringify(Object.fromEntries(COMMAND_MODULES)),
  },
  logLevel: 'warning',
} as const;
// One self-contained CommonJS module per command (no shared chunks): a command reads the entry and its bundle, two
// files, instead of a dozen chunks, each of which costs a resolve, a read and a compile at startup. CommonJS, entry
// and bundles, because it started faster than ES modules with Node's compile cache on the 2-core bench machine
// (generate above an empty `node` start, median of 31 paired runs: CommonJS 27 ms, ES module bundles 30 ms, an ES
// module entry 29 ms). An older Node reads the CommonJS entry and gets its version message, not a syntax or link
// error. The sources' `import.meta.url` becomes the file's URL; the banner starts with the strict directive, which
// must come first for the code to stay strict, as the ES modules it was written as are.
const commonJs = {
  format: 'cjs',
  define: { ...common.define, 'import.meta.url': '__hitlessFileUrl' },
  banner: { js: "'use strict';\nvar __hitlessFileUrl = require('node:url').pathToFileURL(__filename).href;" },
  outdir: join(OUT, 'bin'),
  outExtension: { '.js': '.cjs' },
} as const;
await Promise.all(
  BUNDLES.map((bundle) =>
    build({
      ...common,
      ...commonJs,
      entryPoints: { [bundle]: `hitless-bundle:${bundle}` },
      plugins: [embedProfiles, yamlAsModule, leaveOutLab, bundleEntries(bundle)],
    }),
  ),
);
await build({ ...common, ...commonJs, entryPoints: { hitless: join(ROOT, 'src/cli/package-entry.ts') } });
// The entry starts with the interpreter line.
const entry = join(OUT, 'bin', 'hitless.cjs');
writeFileSync(entry, `#!/usr/bin/env node\n${readFileSync(entry, 'utf8')}`);
// The JSON Schema of .hitless.yaml, for editors (`# yaml-language-server: $schema=<the package>/hitless-config.schema.json`).
writeFileSync(join(OUT, 'hitless-config.schema.json'), configSchemaText());
writeFileSync(
  join(OUT, 'package.json'),
  `${JSON.stringify(
    {
      name: 'hitless',
      version: pkg.version,
      description: pkg.description,
      type: 'module',
      bin: { hitless: 'bin/hitless.cjs' },
      files: ['bin/', 'hitless-config.schema.json'],
      engines: { node: '>=22.12' },
      ...(pkg.repository ? { repository: pkg.repository } : {}),
    },
    null,
    2,
  )}\n`,
);
writeFileSync(
  join(OUT, 'README.md'),
  `# hitless\n\nThe Hitless CLI: generate, check, policy, verify and rules for rolling out LLM model servers behind a Gateway API\nInference Extension InferencePool without dropping a request. Run \`hitless --help\`.\n`,
);
process.stdout.write(`build-cli: ${OUT} (profiles embedded)\n`);
