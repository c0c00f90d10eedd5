/**
 * The generator's highlighted HTML (built into the page for the default manifest, and made by the worker after a
 * change): its text is the manifest exactly, user text is escaped, and the first key is a token of its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { escapeHtml, highlightHtml, highlightLines, linesToHtml } from '../../src/components/generator/highlight.ts';
import { TOKEN_KINDS, YAML_DARK, YAML_LIGHT } from '../../src/components/generator/yaml-themes.ts';
import { generate } from '../support/generate.ts';

/** The text a browser shows for the HTML: tags dropped, the five escapes read back. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(lt|gt|quot|#39|amp);/g, (_m, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e]!);
}

test('escaping covers the characters that end text or an attribute', () => {
  assert.equal(
    escapeHtml(`<a href="x" title='y'>&amp;</a>`),
    '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
  );
});

test('lines become one span each, ending in their newline; a token is a span with its kind as class', () => {
  const html = linesToHtml([
    [
      { content: 'a:', kind: 'key', light: '#024C1A', dark: '#72F088' },
      // A kind the themes do not have (here one that would end the attribute) gives no class.
      { content: ' <b>', kind: 'x" onclick="y' as never },
      { content: ' # c', kind: 'comment' },
    ],
    [],
  ]);
  assert.equal(
    html,
    '<span class="line"><span class="tok-key">a:</span><span> &lt;b&gt;</span><span class="tok-comment"> # c</span>\n</span><span class="line">\n</span>',
  );
});

test("the page's colour for each kind of token is the theme's, light and dark", () => {
  // github-light-high-contrast and github-dark-high-contrast, the five scopes a manifest uses (yaml-themes.ts).
  const expected = {
    text: ['#0E1116', '#F0F3F6'],
    comment: ['#66707B', '#BDC4CC'],
    string: ['#032563', '#ADDCFF'],
    key: ['#024C1A', '#72F088'],
    constant: ['#023B95', '#91CBFF'],
  };
  const css = readFileSync(new URL('../../src/components/generator/yaml-view.css', import.meta.url), 'utf8');
  const inCss = Object.fromEntries(
    [...css.matchAll(/\.tok-([a-z]+) \{ --tok-light: (#[0-9a-f]{6}); --tok-dark: (#[0-9a-f]{6}); \}/g)].map((m) => [
      m[1],
      [m[2].toUpperCase(), m[3].toUpperCase()],
    ]),
  );
  assert.deepEqual(inCss, expected);
  const themes = {
    text: [YAML_LIGHT.fg, YAML_DARK.fg],
    ...Object.fromEntries(
      TOKEN_KINDS.map((kind, i) => [
        kind,
        [YAML_LIGHT.tokenColors![i].settings.foreground, YAML_DARK.tokenColors![i].settings.foreground],
      ]),
    ),
  };
  assert.deepEqual(themes, expected);
});

test("the default manifest's HTML reads back as the manifest, with apiVersion the first highlighted key", async () => {
  const { manifest } = generate({});
  const html = await highlightHtml(manifest);
  assert.equal(textOf(html), manifest);
  const firstKey = /<span class="line"><span class="([^"]*)">([^<#][^<]*)<\/span>/.exec(html);
  assert.equal(firstKey?.[2], 'apiVersion');
  assert.equal(firstKey?.[1], 'tok-key');
  // Every kind of token shows up in it, and no colour is inline.
  for (const kind of ['text', 'comment', 'string', 'key', 'constant'])
    assert.ok(html.includes(`<span class="tok-${kind}">`), kind);
  assert.ok(!html.includes('style='));
});

test('a model name with markup in it stays text', async () => {
  const html = await highlightHtml('model: "<img src=x onerror=alert(1)>"\n');
  assert.ok(!html.includes('<img'));
  assert.equal(textOf(html), 'model: "<img src=x onerror=alert(1)>"\n');
});

test("the worker's per-line HTML: one entry per line, each reading back as its line and newline", async () => {
  const lines = await highlightLines('a: 1\n\n# <note>\nb: "x"\n');
  assert.equal(lines.length, 4);
  assert.deepEqual(lines.map(textOf), ['a: 1\n', '\n', '# <note>\n', 'b: "x"\n']);
  assert.ok(!lines[2].includes('<note>'), 'a comment with markup stays text');
  // The default manifest: the entries wrapped in line spans are the page's highlighted HTML, exactly.
  const { manifest } = generate({});
  const perLine = await highlightLines(manifest);
  assert.equal(perLine.map((l) => `<span class="line">${l}</span>`).join(''), await highlightHtml(manifest));
});
