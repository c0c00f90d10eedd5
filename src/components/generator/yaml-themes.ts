/**
 * Two small shiki themes for YAML with the colours of GitHub's high-contrast themes (each passes 4.5:1 on the
 * manifest's background: white in Starlight's light theme, #17181c in its dark one). The full themes carry
 * colours for hundreds of scopes a manifest never uses; these carry the five it does.
 *
 * The page does not carry the colours token by token: each token is a span with the class of its kind
 * (`tok-key`, ...), and yaml-view.css gives each class its light and dark colour, the same as here
 * (tests/unit/highlight-html.test.ts holds the two to the same values).
 */
import type { ThemeRegistration } from '@shikijs/core';

/** The kinds of token the themes colour, in the order of their rules; plain text is `text`. */
export const TOKEN_KINDS = ['comment', 'string', 'key', 'constant'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number] | 'text';

/** The class of a token of this kind (yaml-view.css colours it); none for a token without one. */
export function kindClass(kind: TokenKind | undefined): string | undefined {
  return kind ? `tok-${kind}` : undefined;
}

function yamlTheme(
  name: string,
  type: 'light' | 'dark',
  c: { text: string; comment: string; key: string; string: string; constant: string },
): ThemeRegistration {
  return {
    name,
    type,
    colors: { 'editor.foreground': c.text },
    fg: c.text,
    tokenColors: [
      { scope: ['comment', 'punctuation.definition.comment'], settings: { foreground: c.comment } },
      { scope: ['string', 'punctuation.definition.string'], settings: { foreground: c.string } },
      { scope: ['entity.name.tag'], settings: { foreground: c.key } },
      {
        scope: [
          'constant.numeric',
          'constant.language',
          'entity.name.type.anchor',
          'variable.other.alias',
          'storage.type.tag-handle',
        ],
        settings: { foreground: c.constant },
      },
    ],
  };
}

/** Light: github-light-high-contrast's colours for these scopes. */
export const YAML_LIGHT = yamlTheme('hitless-yaml-light', 'light', {
  text: '#0E1116',
  comment: '#66707B',
  key: '#024C1A',
  string: '#032563',
  constant: '#023B95',
});

/** Dark: github-dark-high-contrast's colours for these scopes. */
export const YAML_DARK = yamlTheme('hitless-yaml-dark', 'dark', {
  text: '#F0F3F6',
  comment: '#BDC4CC',
  key: '#72F088',
  string: '#ADDCFF',
  constant: '#91CBFF',
});
