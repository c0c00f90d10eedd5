/**
 * The generator's highlighted HTML (built into the page for the default manifest, and made by the worker after a
 * change): its text is the manifest exactly, user text is escaped, and the first key is a token of its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml, highlightHtml, highlightLines, linesToHtml } from '../../src/components/generator/highlight.ts';
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

test('lines become one span each, ending in their newline; colours that are not #hex are dropped', () => {
  const html = linesToHtml([
    [
      { content: 'a:', light: '#024C1A', dark: '#72F088' },
      { content: ' <b>', light: 'red;x:y' },
    ],
    [],
  ]);
  assert.equal(
    html,
    '<span class="line"><span style="--hl-light:#024C1A;--hl-dark:#72F088">a:</span><span> &lt;b&gt;</span>\n</span><span class="line">\n</span>',
  );
});

test("the default manifest's HTML reads back as the manifest, with apiVersion the first highlighted key", async () => {
  const { manifest } = generate({});
  const html = await highlightHtml(manifest);
  assert.equal(textOf(html), manifest);
  const firstKey = /<span class="line"><span style="([^"]*)">([^<#][^<]*)<\/span>/.exec(html);
  assert.equal(firstKey?.[2], 'apiVersion');
  // github-light-high-contrast's key green, and its dark counterpart (yaml-themes.ts).
  assert.equal(firstKey?.[1], '--hl-light:#024C1A;--hl-dark:#72F088');
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
