// @ts-check
/**
 * The site's Content-Security-Policy, for Astro's `security.csp`. Astro hashes the scripts and styles it bundles;
 * the `<script is:inline>` blocks Starlight renders (theme, sidebar state) and the site search's (Search.astro) it
 * does not, so their hashes are computed here from the components' source: an edit or upgrade changes the hashes.
 * tests/e2e/pages.spec.ts visits every page and fails on any violation.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LONG_LINK_SCRIPT } from './long-link.mjs';

/** Starlight components that render `<script is:inline>` blocks. */
const STARLIGHT_INLINE_SCRIPT_FILES = [
  'components/ThemeProvider.astro',
  'components/ThemeSelect.astro',
  'components/SidebarPersister.astro',
  'user-components/Tabs.astro',
];

/**
 * The CSP source for a script's text: `'sha256-…'` without the quotes, as Astro's config expects.
 * @param {string} text
 * @returns {`sha256-${string}`}
 */
function hashScript(text) {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

/**
 * Hashes of every `<script is:inline …>` block in these Astro components' sources: Starlight's, and the site's own
 * (Search.astro replaces Starlight's).
 * @returns {`sha256-${string}`[]}
 */
function inlineScriptHashes() {
  const starlight = dirname(createRequire(import.meta.url).resolve('@astrojs/starlight/components'));
  const files = [
    ...STARLIGHT_INLINE_SCRIPT_FILES.map((file) => join(starlight, file)),
    new URL('./Search.astro', import.meta.url),
  ];
  return files
    .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/<script\s+is:inline\b[^>]*>([\s\S]*?)<\/script>/g)])
    .map((m) => hashScript(m[1]));
}

/**
 * The `security.csp` setting. Scripts: this origin, hashed inline scripts, and WebAssembly compilation for
 * Pagefind's search index ('wasm-unsafe-eval' allows compiling WebAssembly, not eval). Styles: this origin and
 * Astro's hashed styles; style attributes (Expressive Code's token colours, Starlight's hidden elements) are
 * allowed, since they cannot run code. Workers: this origin only (the generator highlights its manifest in one).
 * @returns {Exclude<NonNullable<NonNullable<import('astro').AstroUserConfig['security']>['csp']>, boolean>}
 */
export function contentSecurityPolicy() {
  return {
    algorithm: 'SHA-256',
    directives: [
      "default-src 'self'",
      "img-src 'self' data:",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "worker-src 'self'",
    ],
    scriptDirective: {
      resources: ["'self'", "'wasm-unsafe-eval'"],
      hashes: [...inlineScriptHashes(), hashScript(LONG_LINK_SCRIPT)],
    },
    styleDirective: {
      resources: ["'self'", { resource: "'unsafe-inline'", kind: 'attribute' }],
    },
  };
}
