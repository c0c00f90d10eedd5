import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'document-refused',
  order: 5,
  scope: 'manifest',
  severity: 'error',
  summary:
    'A document the checker refused unread (not valid YAML, a repeated key, nested too deep, or aliases past the bound); the others were checked.',
  remediation:
    'Fix the document where the message points (for aliases, write it out without them, or render it with kubectl apply --dry-run=client -o yaml), then check it.',
  remedy: 'manual',
  check: (ctx) =>
    (ctx.manifest.refused ?? []).map(({ document, message, line }) => ({
      severity: 'error' as const,
      path: [],
      message,
      stray: { document, line },
    })),
});
