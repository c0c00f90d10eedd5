// @ts-check
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
import preact from '@astrojs/preact';
import { parse } from 'yaml';
import { LONG_LINK_SCRIPT } from './src/site/long-link.mjs';
import { contentSecurityPolicy } from './src/site/csp.mjs';

/**
 * Sidebar links for every profile data file in a content folder, in the files' own order.
 * @param {string} dir folder under content/
 * @param {string} base URL path segment of the pages
 */
function profileLinks(dir, base) {
  return readdirSync(new URL(`./content/${dir}/`, import.meta.url))
    .filter((name) => /^[^_.].*\.yaml$/.test(name))
    .map((name) => parse(readFileSync(new URL(`./content/${dir}/${name}`, import.meta.url), 'utf8')))
    .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id))
    .map((p) => ({ label: p.name, link: `/${base}/${p.id}/` }));
}

export default defineConfig({
  // The address `npm start` serves the site at. Nothing links it for readers: it is the origin of the canonical
  // <link> and of the sitemap (which the tests and the link check read). There is no public site or repository
  // yet, so no page, header or message points at a made-up one.
  site: 'http://127.0.0.1:4321',
  srcDir: '.',
  // Separate folders let several builds run side by side (parallel test runs, the benchmark).
  outDir: process.env.HITLESS_OUT_DIR ?? './dist',
  cacheDir: process.env.HITLESS_CACHE_DIR ?? './node_modules/.astro',
  // A hash-based Content-Security-Policy <meta> on every page (see src/site/csp.mjs).
  security: { csp: contentSecurityPolicy() },
  // Stylesheets as files, never inlined: style-src 'self' covers them (Astro does not hash every inlined one).
  build: { inlineStylesheets: 'never' },
  integrations: [
    preact(),
    // `client:interaction`: islands that hydrate on the reader's first interaction (src/site/client-interaction.ts).
    {
      name: 'hitless:client-interaction',
      hooks: {
        'astro:config:setup': ({ addClientDirective }) =>
          addClientDirective({
            name: 'interaction',
            entrypoint: fileURLToPath(new URL('./src/site/client-interaction.ts', import.meta.url)),
          }),
      },
    },
    // No classic inline script in a page's body: the parser never waits for the stylesheets, so the first paint
    // shows the whole page (src/site/unblock-parser.mjs).
    {
      name: 'hitless:unblock-parser',
      hooks: {
        'astro:config:setup': ({ addMiddleware }) =>
          addMiddleware({
            entrypoint: fileURLToPath(new URL('./src/site/unblock-parser-middleware.ts', import.meta.url)),
            order: 'post',
          }),
      },
    },
    starlight({
      title: 'Hitless',
      description: 'Roll out and drain LLM model servers behind an InferencePool without dropping a request.',
      // A PNG rendered from public/favicon.svg (scripts/render-favicon.ts): Chromium rasterizes an SVG favicon as a
      // separate SVG document on the page's main thread after the first paint, on every page.
      favicon: '/favicon.png',
      // Drops an overlong query from the address before the page requests anything (src/site/long-link.mjs).
      head: [{ tag: 'script', content: LONG_LINK_SCRIPT }],
      lastUpdated: false,
      pagination: true,
      customCss: ['./src/styles/site.css'],
      // Site search that loads Pagefind's UI when a reader reaches for it, not on every page (src/site/Search.astro).
      components: { Search: './src/site/Search.astro' },
      // Wrap long YAML lines (drain comments) instead of scrolling them: readable on phones, and no scroll region
      // that needs a tab stop.
      expressiveCode: { defaultProps: { wrap: true } },
      sidebar: [
        {
          label: 'Start here',
          items: [
            { label: 'Overview', link: '/' },
            { label: 'Manifest generator', link: '/generator/' },
            { label: 'Manifest checker', link: '/checker/' },
            { label: 'The drain lab', link: '/lab/' },
            { label: 'The drain model', link: '/drain-model/' },
          ],
        },
        { label: 'Guides', items: [{ autogenerate: { directory: 'guides' } }] },
        {
          label: 'Gateways',
          items: [{ label: 'Compare gateways', link: '/gateways/' }, ...profileLinks('gateways', 'gateways')],
        },
        {
          label: 'Model servers',
          items: [
            { label: 'Compare model servers', link: '/model-servers/' },
            ...profileLinks('model-servers', 'model-servers'),
          ],
        },
      ],
    }),
  ],
});
