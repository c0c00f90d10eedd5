/**
 * The generator's highlighter (shiki's fine-grained core, also used by the checker): for random manifests
 * its tokens join back into the text exactly, and every colour it uses meets WCAG AA contrast (4.5:1) on
 * the manifest's backgrounds in both themes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { highlightYaml, type HighlightToken } from '../../src/components/generator/highlight.ts';
import { validInputs } from '../support/arbitraries.ts';
import { generate, profiles } from '../support/generate.ts';

const joined = (lines: HighlightToken[][]) => lines.map((l) => l.map((t) => t.content).join('')).join('\n');

/** WCAG 2.x contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test('the contrast formula matches known pairs', () => {
  // black on white is 21:1; #767676 on white is the classic 4.54:1 AA limit
  assert.equal(Math.round(contrast('#000000', '#ffffff')), 21);
  assert.equal(contrast('#767676', '#ffffff').toFixed(2), '4.54');
});

test('random manifests: tokens join back exactly, and every colour passes 4.5:1 (60 inputs)', async () => {
  // The manifest's background is Starlight's --sl-color-black: #ffffff in the light theme, hsl(224 10% 10%) =
  // #17181c in the dark one; gray-7 (#f6f7f9) and pure black are checked as well.
  const light = ['#ffffff', '#f6f7f9'];
  const dark = ['#17181c', '#000000'];
  const samples = fc.sample(validInputs(profiles), { numRuns: 60, seed: 7 });
  const problems = new Set<string>();
  for (const raw of samples) {
    const { manifest } = generate(raw);
    const text = manifest.replace(/\n$/, '');
    const lines = await highlightYaml(text);
    assert.equal(joined(lines), text);
    for (const t of lines.flat()) {
      for (const bg of light) if (t.light && contrast(t.light, bg) < 4.5) problems.add(`${t.light} on ${bg}`);
      for (const bg of dark) if (t.dark && contrast(t.dark, bg) < 4.5) problems.add(`${t.dark} on ${bg}`);
    }
  }
  assert.deepEqual([...problems], []);
});

/** Shiki's reference engine: Oniguruma (WebAssembly) with the YAML grammar as published, whole text at once. */
async function referenceHighlighter() {
  const { createHighlighterCore } = await import('@shikijs/core');
  const { createOnigurumaEngine } = await import('@shikijs/engine-oniguruma');
  const { YAML_LIGHT } = await import('../../src/components/generator/yaml-themes.ts');
  const h = await createHighlighterCore({
    engine: createOnigurumaEngine(import('@shikijs/engine-oniguruma/wasm-inlined')),
    langs: [import('@shikijs/langs/yaml')],
    themes: [YAML_LIGHT],
  });
  return (text: string) =>
    h
      .codeToTokensBase(text, { lang: 'yaml', theme: YAML_LIGHT.name, tokenizeTimeLimit: 0 })
      .map((l) => l.map((t) => ({ content: t.content, color: t.color })));
}

/** Each line as its token texts with their colours, e.g. `apiVersion@#024C1A|: @#0E1116|...`. */
const boundaries = (lines: { content: string; color?: string }[][]) =>
  lines.map((l) => l.map((t) => `${t.content}@${(t.color ?? '').toUpperCase()}`).join('|'));

test('the first key after the header comment is one token: apiVersion, in the key colour', async () => {
  // The default manifest opens with four comment lines and a blank line; then `apiVersion: apps/v1`.
  // The precompiled grammar split this key as `a` + `piVersion` (the comment rule ended one character late).
  const lines = await highlightYaml(generate({}).manifest.replace(/\n$/, ''));
  const first = lines.find((l) => l.length > 0 && !l[0].content.startsWith('#') && l[0].content.trim() !== '')!;
  assert.deepEqual(
    first.map((t) => t.content),
    ['apiVersion', ': ', 'apps/v1'],
  );
  assert.equal(first[0].light?.toUpperCase(), '#024C1A');
  // A comment directly followed by a key, and one followed by an indented key.
  const tight = await highlightYaml('# c\nkind: Pod\nspec:\n  # c\n  replicas: 3');
  assert.deepEqual(
    tight.map((l) => l.map((t) => t.content)),
    [['# c'], ['kind', ': ', 'Pod'], ['spec', ':'], ['  ', '# c'], ['  ', 'replicas', ': ', '3']],
  );
});

test("emitted manifests: the same token boundaries and colours as shiki's reference engine", async () => {
  const reference = await referenceHighlighter();
  const texts = [
    // every gateway with every model server at their defaults
    ...profiles.gateways.flatMap((g) =>
      profiles.modelServers.map((m) => generate({ gateway: g.id, 'model-server': m.id }).manifest),
    ),
    // and random inputs, names that read as other YAML types included
    ...fc.sample(validInputs(profiles), { numRuns: 40, seed: 11 }).map((raw) => generate(raw).manifest),
  ].map((m) => m.replace(/\n$/, ''));
  assert.ok(texts.length > 40);
  for (const text of texts) {
    const ours = (await highlightYaml(text)).map((l) => l.map((t) => ({ content: t.content, color: t.light })));
    assert.deepEqual(boundaries(ours), boundaries(reference(text)));
  }
});

test('slicing keeps the grammar: the same tokens as the reference tokenizing the whole text at once', async () => {
  const reference = await referenceHighlighter();
  // A block scalar and a multi-line flow list cross the 20-line slice boundaries.
  const text = [
    generate({ gateway: 'custom', 'model-server': 'sglang' }).manifest.replace(/\n$/, ''),
    '---',
    'note: |',
    ...Array.from({ length: 30 }, (_, i) => `  line ${i} # not a comment`),
    'list: [',
    ...Array.from({ length: 25 }, (_, i) => `  "v${i}",`),
    ']',
  ].join('\n');
  const sliced = (await highlightYaml(text)).map((l) => l.map((t) => ({ content: t.content, color: t.light })));
  assert.equal(joined(await highlightYaml(text)), text);
  assert.deepEqual(boundaries(sliced), boundaries(reference(text)));
  // Keys, comments, strings and numbers get their own colours (github-light-high-contrast's), not the text colour.
  const colourOf = (content: string) =>
    sliced
      .flat()
      .find((t) => t.content === content)
      ?.color?.toUpperCase();
  assert.equal(colourOf('apiVersion'), '#024C1A');
  assert.equal(colourOf('3'), '#023B95');
  assert.match(sliced.flat().find((t) => t.content.startsWith('# Generated'))!.color!, /^#66707B$/i);
});
