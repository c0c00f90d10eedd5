/**
 * Check every internal link in the built site: each href, src, srcset, poster and action in every HTML page
 * (and every URL in the sitemap) must name a file the build wrote, and each #fragment an id on the target page.
 * Links to the site's own origin (the `site` in astro.config.mjs, as in canonical links) count as internal.
 *
 * Usage: node scripts/check-links.ts [OUT_DIR]   (default: $HITLESS_OUT_DIR, else dist)
 * Exit 0 when every link resolves; 1 with one line per broken link (page: link: reason); 2 when there is no build.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = resolve(ROOT, process.argv[2] ?? process.env.HITLESS_OUT_DIR ?? 'dist');

/** The site's own origin, read from astro.config.mjs, so that absolute links to it are checked too. */
function siteOrigin(): string | undefined {
  const config = readFileSync(join(ROOT, 'astro.config.mjs'), 'utf8');
  const match = /\bsite:\s*['"]([^'"]+)['"]/.exec(config);
  return match ? new URL(match[1]).origin : undefined;
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return htmlFiles(path);
    return entry.name.endsWith('.html') ? [path] : [];
  });
}

/** The URL path a built file is served at: `guides/x/index.html` → `/guides/x/`, `404.html` → `/404.html`. */
function pagePath(file: string): string {
  const rel = relative(OUT, file).split(sep).join('/');
  return `/${rel.endsWith('index.html') ? rel.slice(0, -'index.html'.length) : rel}`;
}

/** Remove what is not markup: comments, and the bodies of scripts, styles and templates' scripts. */
function markupOnly(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/(<script\b[^>]*>)[\s\S]*?(<\/script>)/gi, '$1$2')
    .replace(/(<style\b[^>]*>)[\s\S]*?(<\/style>)/gi, '$1$2');
}

function decodeEntities(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);/gi, (_, hex) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Every link-bearing attribute value in a page, with its attribute name. */
function linksIn(html: string): { attr: string; value: string }[] {
  const links: { attr: string; value: string }[] = [];
  const tag = /<[a-zA-Z][^\s/>]*(\s[^>]*)?>/g;
  const attr = /\s(href|src|srcset|poster|action|xlink:href)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;
  for (const t of markupOnly(html).matchAll(tag)) {
    for (const a of (t[1] ?? '').matchAll(attr)) {
      const name = a[1].toLowerCase();
      const value = decodeEntities(a[2] ?? a[3] ?? a[4] ?? '');
      if (name === 'srcset') {
        for (const candidate of value.split(',')) {
          const url = candidate.trim().split(/\s+/)[0];
          if (url) links.push({ attr: name, value: url });
        }
      } else {
        links.push({ attr: name, value });
      }
    }
  }
  return links;
}

const idCache = new Map<string, Set<string>>();

/** The ids (and `<a name>`s) a built page defines. */
function idsOf(file: string): Set<string> {
  let ids = idCache.get(file);
  if (!ids) {
    const html = markupOnly(readFileSync(file, 'utf8'));
    ids = new Set(
      [...html.matchAll(/\s(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi)].map((m) =>
        decodeEntities(m[1] ?? m[2] ?? m[3] ?? ''),
      ),
    );
    idCache.set(file, ids);
  }
  return ids;
}

/** The built file a URL path is served from, or undefined. Mirrors a static server: `/x/` → `x/index.html`. */
function fileFor(pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const base = resolve(OUT, `.${decoded}`);
  if (base !== OUT && !base.startsWith(OUT + sep)) return undefined; // escapes the build
  const candidates = decoded.endsWith('/')
    ? [join(base, 'index.html')]
    : [base, `${base}.html`, join(base, 'index.html')];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/** Why a link is broken, or undefined when it resolves (or is not internal). */
function problemWith(link: string, fromPath: string, fromFile: string, origin: string | undefined): string | undefined {
  const value = link.trim();
  if (value === '') return 'empty link';
  if (value.startsWith('//')) return undefined; // another origin; the network test rejects outside requests
  if (SCHEME.test(value) && !(origin && value.startsWith(`${origin}/`)) && value !== origin) return undefined;
  const url = new URL(value, `http://site.invalid${fromPath}`);
  const path = origin && value.startsWith(origin) ? new URL(value).pathname : url.pathname;
  const target =
    url.hash && path === fromPath && !value.startsWith('/') && !SCHEME.test(value) ? fromFile : fileFor(path);
  if (!target) return `no built file for ${path}`;
  const fragment = url.hash.slice(1);
  if (fragment && !fragment.startsWith(':~:') && target.endsWith('.html')) {
    let id: string;
    try {
      id = decodeURIComponent(fragment);
    } catch {
      return `malformed fragment #${fragment}`;
    }
    if (!idsOf(target).has(id)) return `no id "${id}" on ${pagePath(target)}`;
  }
  return undefined;
}

function main(): number {
  if (!existsSync(join(OUT, 'index.html'))) {
    process.stderr.write(`check-links: no built site at ${OUT} (run npm run build, or set HITLESS_OUT_DIR)\n`);
    return 2;
  }
  const origin = siteOrigin();
  const broken: string[] = [];
  let checked = 0;
  const pages = htmlFiles(OUT)
    .filter((f) => !relative(OUT, f).startsWith(`pagefind${sep}`))
    .sort();
  for (const file of pages) {
    const from = pagePath(file);
    for (const { attr, value } of linksIn(readFileSync(file, 'utf8'))) {
      // Starlight gives its 404 page (built as /404.html) the canonical URL /404/, which no server resolves to it.
      if (from === '/404.html' && value === `${origin}/404/`) continue;
      checked++;
      const problem = problemWith(value, from, file, origin);
      if (problem) broken.push(`${from}: ${attr}="${value}": ${problem}`);
    }
  }
  for (const sitemap of readdirSync(OUT).filter((n) => /^sitemap.*\.xml$/.test(n))) {
    for (const m of readFileSync(join(OUT, sitemap), 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)) {
      checked++;
      const loc = decodeEntities(m[1]);
      const problem =
        origin && loc.startsWith(origin)
          ? problemWith(loc, '/', join(OUT, 'index.html'), origin)
          : `not on the site's origin ${origin}`;
      if (problem) broken.push(`/${sitemap}: <loc>${loc}</loc>: ${problem}`);
    }
  }
  const unique = [...new Set(broken)];
  if (unique.length > 0) {
    process.stderr.write(
      `check-links: ${unique.length} broken internal link${unique.length === 1 ? '' : 's'} in ${OUT}:\n${unique.map((b) => `  ${b}`).join('\n')}\n`,
    );
    return 1;
  }
  process.stdout.write(
    `check-links: ${checked} links in ${pages.length} pages and the sitemap resolve (${relative(ROOT, OUT) || OUT}).\n`,
  );
  return 0;
}

process.exitCode = main();
