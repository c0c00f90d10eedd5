/**
 * Lazy YAML highlighting with shiki's fine-grained core: the YAML grammar, the JavaScript regex engine (no
 * WebAssembly, so no 'wasm-unsafe-eval' in the Content-Security-Policy) and two small YAML themes. The generator
 * runs it at build time (the default manifest) and in a Web Worker (highlight-worker.ts); the checker loads it with
 * import() after first paint.
 *
 * Not the precompiled grammar (@shikijs/langs-precompiled, up to 4.4.3): it rewrites the comment rule's end
 * `(?!\G)` as `(?!^)`, so the line after a comment splits after its first character (`a` + `piVersion`), with
 * matching shiki versions too. The regex engine compiles the grammar as shiki's reference engine
 * (Oniguruma) reads it; tests/unit/highlight.test.ts holds the two to the same token boundaries.
 *
 * The text is tokenized in slices of a few lines, carrying the grammar state from one slice to the next and
 * yielding to the browser in between, so highlighting a long manifest never blocks input for long. Both themes
 * colour the same scopes, so one pass with the light theme gives the token boundaries and the dark colour is
 * the light colour's counterpart.
 */
import { createHighlighterCore, type HighlighterCore } from '@shikijs/core';
import { createJavaScriptRegexEngine } from '@shikijs/engine-javascript';
import yaml from '@shikijs/langs/yaml';
import { kindClass, TOKEN_KINDS, YAML_DARK, YAML_LIGHT, type TokenKind } from './yaml-themes.ts';

/**
 * One highlighted token: its text, its kind (the class the page gives it: `tok-key`, ...) and its colours for the
 * light and dark themes.
 */
export interface HighlightToken {
  content: string;
  kind?: TokenKind;
  light?: string;
  dark?: string;
}

/** Lines tokenized per slice before yielding to the browser. */
const LINES_PER_SLICE = 20;

/** The dark theme's colour for each light-theme colour, scope by scope. */
const DARK_OF = new Map<string, string>(
  [
    [YAML_LIGHT.fg!, YAML_DARK.fg!],
    ...YAML_LIGHT.tokenColors!.map(
      (rule, i) => [rule.settings.foreground!, YAML_DARK.tokenColors![i].settings.foreground!] as [string, string],
    ),
  ].map(([light, dark]) => [light.toUpperCase(), dark]),
);

/** The kind of token each light-theme colour marks: the themes' rules are in TOKEN_KINDS's order. */
const KIND_OF = new Map<string, TokenKind>([
  [YAML_LIGHT.fg!.toUpperCase(), 'text'],
  ...YAML_LIGHT.tokenColors!.map((rule, i) => [rule.settings.foreground!.toUpperCase(), TOKEN_KINDS[i]] as const),
]);

let highlighter: Promise<HighlighterCore> | undefined;

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    engine: createJavaScriptRegexEngine(),
    langs: [yaml],
    themes: [YAML_LIGHT],
  });
  return highlighter;
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Tokenize YAML into lines of tokens carrying light and dark colours. The tokens of each line join back into it. */
export async function highlightYaml(code: string): Promise<HighlightToken[][]> {
  const h = await getHighlighter();
  const lines = code.split('\n');
  const out: HighlightToken[][] = [];
  let grammarState;
  for (let start = 0; start < lines.length; start += LINES_PER_SLICE) {
    if (start > 0) await nextTask();
    const slice = h.codeToTokensBase(lines.slice(start, start + LINES_PER_SLICE).join('\n'), {
      lang: 'yaml',
      theme: YAML_LIGHT.name,
      grammarState,
      // No time limit per line (shiki's default is 500 ms): on a starved CPU a line that runs over would end as one
      // uncoloured token. The slices bound the work per task, and the checker shows text over 32 KB unhighlighted.
      tokenizeTimeLimit: 0,
    });
    grammarState = h.getLastGrammarState(slice);
    for (const line of slice) {
      out.push(
        line.map((t) => ({
          content: t.content,
          kind: t.color ? KIND_OF.get(t.color.toUpperCase()) : undefined,
          light: t.color,
          dark: t.color ? DARK_OF.get(t.color.toUpperCase()) : undefined,
        })),
      );
    }
  }
  return out;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML text node or attribute: `&`, `<`, `>` and quotes escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

const KINDS = new Set<string>(['text', ...TOKEN_KINDS]);

/**
 * One line's tokens as HTML: one span per token with the class of its kind (a kind that is not one of the
 * themes' is dropped). A class, not the colours inline: about 700 tokens in the default manifest, and a class is
 * under half the bytes of two colours in a style attribute, which the page would also parse one by one.
 */
function lineToHtml(line: HighlightToken[]): string {
  return line
    .map((t) => {
      const cls = t.kind && KINDS.has(t.kind) ? kindClass(t.kind) : undefined;
      return cls ? `<span class="${cls}">${escapeHtml(t.content)}</span>` : `<span>${escapeHtml(t.content)}</span>`;
    })
    .join('');
}

/**
 * Highlighted lines as HTML: one `<span class="line">` per line ending in its newline (the inner HTML of each is
 * `highlightLines`'s entry for it). The text content is the lines joined with newlines, each ended by one.
 */
export function linesToHtml(lines: HighlightToken[][]): string {
  return lines.map((line) => `<span class="line">${lineToHtml(line)}\n</span>`).join('');
}

/**
 * A manifest (ending in a newline) as the inner HTML of each of its lines, each ending in its newline: the text
 * content of entry i is line i and a newline.
 */
export async function highlightLines(code: string): Promise<string[]> {
  return (await highlightYaml(code.replace(/\n$/, ''))).map((line) => `${lineToHtml(line)}\n`);
}

/** A manifest (ending in a newline) as highlighted HTML whose text content is the manifest exactly. */
export async function highlightHtml(code: string): Promise<string> {
  return linesToHtml(await highlightYaml(code.replace(/\n$/, '')));
}
