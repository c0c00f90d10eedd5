/**
 * `hitless check --format sarif`: the findings as a SARIF 2.1.0 log (OASIS), the format code-scanning tools upload
 * (GitHub's `upload-sarif`, GitLab, Azure DevOps). One run; the tool's rules are the checker's registry, each with
 * its summary, remediation and default level; a result per finding, on its file and line where it has one.
 * The results are written one by one, as the JSON format's findings are, so that a large input's log is never held
 * whole in memory.
 */
import type { Log, ReportingDescriptor, Result } from 'sarif';
import { ruleRows } from '../check/rules/index.ts';
import { WARNING_CODES } from '../model/plan-types.ts';
import type { Finding } from '../check/index.ts';
import type { Joined } from './check-input.ts';
import { placeOf } from './check-print.ts';
import { packageVersion } from './version.ts';

/** The schema the log names (OASIS SARIF 2.1.0, errata 01). */
const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

const LEVEL: Record<Finding['severity'], Result.level> = { error: 'error', warning: 'warning', info: 'note' };

/** A file name as a SARIF artifact URI: a relative reference, each path segment percent-encoded. */
function artifactUri(name: string): string {
  return name.split('/').map(encodeURIComponent).join('/');
}

/**
 * The checker's rules as the run's tool describes them, in registry order, then the drain plan's own notes (which
 * the checker passes on under their codes, as `hitless generate` prints them), so that every result names a rule.
 */
function sarifRules(): ReportingDescriptor[] {
  const notes: ReportingDescriptor[] = WARNING_CODES.map((code) => ({
    id: code,
    shortDescription: {
      text: `A note of the drain plan for these settings (hitless generate prints it too): ${code}.`,
    },
    help: { text: 'The finding\u2019s message says what it rests on and what to set or change.' },
  }));
  return [
    ...ruleRows().map((r) => ({
      id: r.code,
      shortDescription: { text: r.summary },
      help: {
        text: `${r.remediation} (${r.fix === 'applied' ? 'hitless check --format diff writes the fix' : 'a fix by hand'})`,
      },
      defaultConfiguration: {
        level: r.severity.startsWith('error') ? 'error' : r.severity.startsWith('warning') ? 'warning' : 'note',
      } satisfies ReportingDescriptor['defaultConfiguration'],
    })),
    ...notes,
  ];
}

/** The log around its results: the text before the first result and after the last (`results` spliced between). */
export function sarifFrame(exitCode: number): [string, string] {
  const log: Log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'hitless', version: packageVersion(), rules: sarifRules() } },
        invocations: [{ executionSuccessful: exitCode !== 2, exitCode }],
        results: [],
      },
    ],
  };
  const [before, after] = `${JSON.stringify(log, null, 2)}\n`.split('"results": []');
  return [`${before}"results": [`, `\n      ]${after}`];
}

/** One finding as a SARIF result, with the comma that goes before all but the first. */
export function sarifResultPrinter(joined: Joined): (f: Finding) => string {
  const index = new Map<string, number>(sarifRules().map((r, i) => [r.id, i]));
  return (f) => {
    const { file, line } = placeOf(joined, f.line);
    const result: Result = {
      ruleId: f.code,
      ruleIndex: index.get(f.code),
      level: LEVEL[f.severity],
      message: { text: `${f.object ? `${f.object}: ` : ''}${f.path ? `${f.path}: ` : ''}${f.message}` },
      ...(file && file !== '-'
        ? {
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: artifactUri(file) },
                  ...(line === undefined ? {} : { region: { startLine: line } }),
                },
              },
            ],
          }
        : {}),
      ...(f.fix ? { properties: { fix: f.fix.text, remedy: f.remedy } } : {}),
    };
    return `,\n${JSON.stringify(result, null, 2).replace(/^/gm, '        ')}`;
  };
}
