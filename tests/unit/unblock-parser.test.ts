// unblockParser: a page's body scripts that would stop the HTML parser while stylesheets load become module
// scripts; everything else stays byte for byte. Inputs are hand-written pages in the shapes Starlight and Astro emit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unblockParser } from '../../src/site/unblock-parser.mjs';

test('a classic inline script in the body becomes a module script, its text unchanged', () => {
  const page =
    '<html><head><title>T</title></head><body><header><script>\n\tStarlightThemeProvider.updatePickers();\n</script></header><main>x</main></body></html>';
  assert.equal(
    unblockParser(page),
    '<html><head><title>T</title></head><body><header><script type="module">\n\tStarlightThemeProvider.updatePickers();\n</script></header><main>x</main></body></html>',
  );
});

test('attributes stay, in order, after the added type', () => {
  assert.equal(
    unblockParser('<body class="a"><script aria-hidden="true">(() => {})();</script></body>'),
    '<body class="a"><script type="module" aria-hidden="true">(() => {})();</script></body>',
  );
});

test('head scripts, typed scripts and external scripts are left alone', () => {
  const page = [
    '<!doctype html><html><head><script>window.T = 1;</script><link rel="stylesheet" href="/a.css"></head>',
    '<body><script type="application/json" id="d">{"a":"<script>"}</script>',
    '<script type="module" src="/m.js"></script><script src="/classic.js"></script>',
    '<SCRIPT TYPE="text/plain">x</SCRIPT><script defer src=/d.js></script></body></html>',
  ].join('');
  assert.equal(unblockParser(page), page);
});

test('text that only looks like a script tag is not rewritten', () => {
  const page = [
    '<body><!-- <script>old()</script> -->',
    '<textarea><script>typed()</script></textarea>',
    '<style>a::before { content: "<script>"; }</style>',
    '<a title="<script>" href="#">x</a>',
    '<pre><code>&lt;script&gt;</code></pre>',
    '<script type="module">const s = "<script>"; const t = `</scrip` + `t>`;</script></body>',
  ].join('');
  assert.equal(unblockParser(page), page);
});

test('a script in a body whose text contains a tag-like string is rewritten once and the rest scanned after it', () => {
  assert.equal(
    unblockParser('<body><script>document.write("<b>");</script><p>a</p><script>go()</script></body>'),
    '<body><script type="module">document.write("<b>");</script><p>a</p><script type="module">go()</script></body>',
  );
});

test('a quoted > inside an attribute does not end the tag early', () => {
  assert.equal(
    unblockParser('<body><div data-x="a > b"><script data-y=\'1>2\'>run()</script></div></body>'),
    '<body><div data-x="a > b"><script type="module" data-y=\'1>2\'>run()</script></div></body>',
  );
});

test('the word body in the head does not start the body', () => {
  const page = '<head><title>body</title><script>const body = "<body>";</script></head><body><p>x</p></body>';
  assert.equal(unblockParser(page), page);
});

test('an attribute named like type or src inside a value does not count', () => {
  assert.equal(
    unblockParser('<body><script data-note="type=module src=x">a()</script></body>'),
    '<body><script type="module" data-note="type=module src=x">a()</script></body>',
  );
});

test('a page without a body, or unterminated input, comes back unchanged or is only ever extended by the type', () => {
  assert.equal(unblockParser('<p>fragment</p><script>x()</script>'), '<p>fragment</p><script>x()</script>');
  assert.equal(unblockParser(''), '');
  assert.equal(unblockParser('<body><script>never closed'), '<body><script type="module">never closed');
  assert.equal(unblockParser('<body><div title="open'), '<body><div title="open');
});

test('a script typed as JavaScript, or with an empty type, is classic: its type is replaced by module', () => {
  assert.equal(
    unblockParser(
      '<body><script type="text/javascript">a()</script><script TYPE=\'\' id="b">b()</script><script data-x="1" type=" Application/JavaScript ">c()</script></body>',
    ),
    '<body><script type="module">a()</script><script type="module" id="b">b()</script><script type="module" data-x="1">c()</script></body>',
  );
  assert.equal(
    unblockParser('<body><script type>d()</script><script type=text/jscript defer>e()</script></body>'),
    '<body><script type="module">d()</script><script type="module" defer>e()</script></body>',
  );
});

test('scripts of other types are not touched, whatever their case or spacing', () => {
  const page =
    '<body><script type="application/ld+json">{}</script><script type=" MODULE ">m()</script><script type="text/x-template"><p></p></script></body>';
  assert.equal(unblockParser(page), page);
});
