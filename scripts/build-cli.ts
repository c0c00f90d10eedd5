/**
 * Build the installable CLI package into `cli-dist/` (or the folder given as the first argument):
 * one ES module entry with a chunk per command, bundled with esbuild for Node 20 (no type stripping at run time,
 * no dependencies to install), and the data files the commands read. `npm run pack:cli` packs it.
 *
 *   cli-dist/package.json         name, version, bin, engines; no dependencies
 *   cli-dist/bin/hitless.mjs      the entry; its chunks sit beside it
 *   cli-dist/content/…            the gateway and model-server data and the request defaults (what the reader loads)
 *
 * The drain lab is left out: it starts HAProxy and the stand-ins from the repository's sources, so `hitless lab`
 * in the package says to run it from a checkout.
 */
import { build, type Plugin } from 'esbuild';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDataFileName } from '../src/drain/profile-files.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = resolve(process.argv[2] ?? join(ROOT, 'cli-dist'));
/** The data under content/ the CLI reads: every folder but the docs and the lab's results, and the YAML files. */
const DATA_DIRS = readdirSync(join(ROOT, 'content')).filter((name) =>
  statSync(join(ROOT, 'content', name)).isDirectory() ? !['docs', 'lab'].includes(name) : isDataFileName(name));

/** In the package the data sits one folder up from the bundle, not two up from src/profiles/. */
const relocateContent: Plugin = {
  name: 'relocate-content',
  setup(b) {
    b.onLoad({ filter: /src[\\/]profiles[\\/]read-files\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes("'../../content/'")) throw new Error(`${args.path}: expected new URL('../../content/', import.meta.url)`);
      return { contents: text.replace("'../../content/'", "'../content/'"), loader: 'ts' };
    });
  },
};

/** The lab runs from a checkout; in the package its command explains that instead of failing on missing sources. */
const leaveOutLab: Plugin = {
  name: 'leave-out-lab',
  setup(b) {
    b.onResolve({ filter: /^\.\/lab\.ts$/ }, (args) => (args.importer.includes(join('src', 'cli')) ? { path: 'lab', namespace: 'hitless-lab' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'hitless-lab' }, () => ({
      contents: `export async function runLab() {
  process.stderr.write('hitless lab runs HAProxy and stand-in model servers from the Hitless sources: run it in a checkout of the repository (npm ci && npm run lab).\\n');
  return 2;
}`,
      loader: 'js',
    }));
  },
};

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; description: string; repository?: unknown };

rmSync(OUT, { recursive: true, force: true });
mkdirSync(join(OUT, 'bin'), { recursive: true });
await build({
  entryPoints: { hitless: join(ROOT, 'src/cli/package-entry.ts') },
  outdir: join(OUT, 'bin'),
  outExtension: { '.js': '.mjs' },
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'linked',
  // Some dependencies (yaml's Node build) are CommonJS and require Node's built-ins; give the ES module a require.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __hitlessCreateRequire } from 'node:module';\nconst require = __hitlessCreateRequire(import.meta.url);" },
  define: { HITLESS_PACKAGE_VERSION: JSON.stringify(pkg.version) },
  plugins: [relocateContent, leaveOutLab],
  logLevel: 'warning',
});
for (const dir of DATA_DIRS) cpSync(join(ROOT, 'content', dir), join(OUT, 'content', dir), { recursive: true });
writeFileSync(join(OUT, 'package.json'), `${JSON.stringify({
  name: 'hitless',
  version: pkg.version,
  description: pkg.description,
  type: 'module',
  bin: { hitless: 'bin/hitless.mjs' },
  files: ['bin/', 'content/'],
  engines: { node: '>=20' },
  ...(pkg.repository ? { repository: pkg.repository } : {}),
}, null, 2)}\n`);
writeFileSync(join(OUT, 'README.md'), `# hitless\n\nThe Hitless CLI: generate, check, policy, verify and rules for rolling out LLM model servers behind a Gateway API\nInference Extension InferencePool without dropping a request. Run \`hitless --help\`.\n`);
process.stdout.write(`build-cli: ${OUT} (data: ${DATA_DIRS.join(', ')})\n`);
