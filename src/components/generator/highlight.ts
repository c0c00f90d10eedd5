/**
 * Lazy YAML highlighting with shiki's fine-grained core: the precompiled YAML grammar and the raw
 * JavaScript engine (no regex compiler, no WebAssembly). Loaded with import() after first paint.
 */
import { createHighlighterCore, type HighlighterCore } from '@shikijs/core';
import { createJavaScriptRawEngine } from '@shikijs/engine-javascript/raw';

/** One highlighted token: its text and its colours for the light and dark themes. */
export interface HighlightToken {
  content: string;
  light?: string;
  dark?: string;
}

let highlighter: Promise<HighlighterCore> | undefined;

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    engine: createJavaScriptRawEngine(),
    langs: [import('@shikijs/langs-precompiled/yaml')],
    themes: [import('@shikijs/themes/github-light-high-contrast'), import('@shikijs/themes/github-dark-high-contrast')],
  });
  return highlighter;
}

/** Tokenize YAML into lines of tokens carrying light and dark colours. */
export async function highlightYaml(code: string): Promise<HighlightToken[][]> {
  const h = await getHighlighter();
  const lines = h.codeToTokensWithThemes(code, { lang: 'yaml', themes: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' } });
  return lines.map((line) => line.map((token) => ({
    content: token.content,
    light: token.variants.light?.color,
    dark: token.variants.dark?.color,
  })));
}
