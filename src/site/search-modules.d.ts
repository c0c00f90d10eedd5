// Types for the modules the site search (src/site/Search.astro, src/site/search-ui.ts) imports that ship none.

declare module 'virtual:starlight/pagefind-config' {
  /** Starlight's `pagefind` option (`{}` when unset), passed on to Pagefind's UI as Starlight's own search does. */
  export const pagefindUserConfig: Record<string, unknown>;
}

declare module 'virtual:starlight/project-context' {
  /** The part of Astro's config the search reads. */
  const context: { trailingSlash: 'always' | 'never' | 'ignore' };
  export default context;
}

declare module '@pagefind/default-ui' {
  /** Pagefind's search UI (@pagefind/default-ui 1.x), mounted into `element`. */
  export class PagefindUI {
    constructor(options: Record<string, unknown> & { element: string | HTMLElement });
  }
}
