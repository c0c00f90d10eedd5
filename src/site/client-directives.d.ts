// `client:interaction` (src/site/client-interaction.ts, registered in astro.config.mjs) in .astro and .mdx files.
declare global {
  namespace Astro {
    interface ClientDirectives {
      /** Hydrate on the reader's first interaction; `"search"`: also at once when the URL has a query string. */
      'client:interaction'?: boolean | 'search';
    }
  }
}
export {};
