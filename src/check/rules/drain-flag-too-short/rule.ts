/** drain-flag-too-short: The server’s drain flag (or its default) ends the drain early. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'drain-flag-too-short',
  severity: 'error below the longest request; warning below the drain budget',
  summary: 'The server\u2019s drain flag (or its default) ends the drain early.',
  remediation: 'Raise the drain flag to the drain budget.',
  fix: 'applied',
  checkedIn: ['rules/areas/drain-flag.ts'],
});
