/**
 * `hitless check --explain`: print the workload model a check runs on (src/check/explain.ts) instead of its
 * findings: each object and container with what it runs and why the checker thinks so, and each input with where it
 * came from. Text, or JSON with --format json. Exit 0, or 2 when the input cannot be read or checked.
 */
import { explainManifest, explanationText, formatKiB, MAX_INPUT_BYTES } from '../check/index.ts';
import type { RepoConfig } from '../check/config.ts';
import type { Profiles } from '../facts/profiles.ts';
import { UsageError } from './args.ts';
import { readCheckInput } from './check-input.ts';
import { writeOutput } from './streams.ts';

export async function explainAndPrint(
  names: string[],
  settings: Record<string, string>,
  profiles: Profiles,
  format: string,
  config?: RepoConfig,
): Promise<number> {
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`--explain prints text or --format json, not --format ${format}`);
  const input = await readCheckInput(names, profiles, false);
  if (input.kind === 'unreadable') {
    for (const u of input.unreadable) writeOutput('stderr', `hitless check: ${u.name}: ${u.problem}\n`);
    return 2;
  }
  if (input.kind === 'parts')
    throw new UsageError(
      `--explain reads an input of at most ${formatKiB(MAX_INPUT_BYTES)} whole (this one is ${formatKiB(input.bytes)}); explain its files one at a time`,
    );
  const result = explainManifest(input.text, settings, profiles, config);
  if (!result.ok) {
    writeOutput('stderr', `hitless check: ${names.join(', ')}: ${result.problem.message}\n`);
    return 2;
  }
  writeOutput(
    'stdout',
    format === 'json' ? `${JSON.stringify(result.explanation, null, 2)}\n` : explanationText(result.explanation),
  );
  return 0;
}
