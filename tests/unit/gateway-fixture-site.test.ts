// Adding a gateway is adding one data file, end to end: a copy of the repository with
// tests/fixtures/gateways/example-gw.yaml added to content/gateways/ builds a site with the gateway's page, its
// sidebar entry, its comparison row and its generator preset link, and its CLI takes --gateway example-gw.
// The build runs in a temporary copy inside the repository's (git-ignored) .astro folder, so that Node and Vite find
// the repository's node_modules by walking up, with real paths inside a common root (a symlinked node_modules in
// /tmp makes Astro read its own components' paths as root-relative). It never touches the repository's dist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../fixtures/gateways/example-gw.yaml', import.meta.url));
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
/** Top-level entries that are build output or test output, not the site's source (dot-entries are skipped too). */
const SKIP = new Set(['node_modules', 'dist', 'test-results', 'playwright-report']);

/** The HTML between `<nav ... aria-label="Main">` and its `</nav>`: Starlight's sidebar. */
function sidebarOf(html: string): string {
  const start = html.indexOf('aria-label="Main"');
  assert.notEqual(start, -1, 'the page has a sidebar');
  return html.slice(start, html.indexOf('</nav>', start));
}

test('a site built with the fixture gateway has its page, sidebar entry, comparison row and preset; the CLI takes it', (t) => {
  mkdirSync(join(ROOT, '.astro'), { recursive: true });
  const copy = mkdtempSync(join(ROOT, '.astro', 'fixture-site-'));
  t.after(() => rmSync(copy, { recursive: true, force: true }));
  for (const entry of readdirSync(ROOT)) {
    if (!SKIP.has(entry) && !entry.startsWith('.') && !entry.endsWith('.log'))
      cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
  }
  cpSync(FIXTURE, join(copy, 'content', 'gateways', 'example-gw.yaml'));

  const dist = join(copy, 'dist');
  const build = spawnSync('npm', ['run', 'build'], {
    cwd: copy,
    encoding: 'utf8',
    timeout: 900_000, // catches a hung build; a build at load average 30 took over 180 s
    env: {
      ...process.env,
      HITLESS_OUT_DIR: dist,
      HITLESS_CACHE_DIR: join(copy, 'cache'),
      ASTRO_TELEMETRY_DISABLED: '1',
    },
  });
  assert.equal(build.status, 0, `the build fails:\n${build.stdout.slice(-3000)}\n${build.stderr.slice(-3000)}`);

  const pagePath = join(dist, 'gateways', 'example-gw', 'index.html');
  assert.ok(existsSync(pagePath), 'the gateway page is built');
  const page = readFileSync(pagePath, 'utf8');
  assert.match(page, /<h1[^>]*>Example Gateway<\/h1>/);
  assert.match(page, /data-gateway="example-gw"/);
  // The preset link carries only the non-default value: the gateway.
  assert.match(page, /href="\/generator\/\?v=2&amp;gateway=example-gw"[^>]*data-testid="generator-link"/);
  // removal 8 + 5 margin = 13 s preStop, from the fixture's data through the core.
  assert.match(page, /data-testid="prestop-seconds">13 s</);
  // The extra object, rendered from the emitter's output, with the 75 s timeout (50 s × 1.5, above 60 s).
  assert.match(page, /data-testid="extra-manifest" data-kind="ExampleTimeoutPolicy"/);
  assert.match(page.replace(/<[^>]+>/g, ''), /requestTimeoutSeconds: 738 # 492s longest request/);

  for (const other of [
    join('gateways', 'gke', 'index.html'),
    join('gateways', 'index.html'),
    join('model-servers', 'vllm', 'index.html'),
  ]) {
    assert.match(
      sidebarOf(readFileSync(join(dist, other), 'utf8')),
      /<a href="\/gateways\/example-gw\/"[^>]*>\s*<span[^>]*>Example Gateway<\/span>/,
      `sidebar of ${other}`,
    );
  }
  const comparison = readFileSync(join(dist, 'gateways', 'index.html'), 'utf8');
  const row = /<tr data-gateway="example-gw"[^>]*>([\s\S]*?)<\/tr>/.exec(comparison);
  assert.ok(row, 'the comparison table has a row for the fixture');
  assert.match(row[1], /<a href="\/gateways\/example-gw\/"[^>]*>Example Gateway<\/a>/);
  assert.match(row[1], /href="\/generator\/\?v=2&amp;gateway=example-gw"/);
  assert.match(row[1], /ExampleTimeoutPolicy/);

  const cli = spawnSync(
    NODE,
    [join(copy, 'bin', 'hitless.mjs'), 'generate', '--gateway', 'example-gw', '--format', 'json'],
    { encoding: 'utf8' },
  );
  assert.equal(cli.status, 0, cli.stderr);
  const out = JSON.parse(cli.stdout);
  assert.equal(out.inputs.gateway, 'example-gw');
  assert.equal(out.plan.preStopSeconds, 13);
  assert.match(out.manifest, /kind: ExampleTimeoutPolicy\n/);
});
