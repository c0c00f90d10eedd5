#!/usr/bin/env node
/**
 * The hitless CLI: `generate` writes the annotated manifest, `check` reviews manifests you run,
 * `lab` runs the drain lab. Exit codes: 0 ok, 1 findings at error severity (check), an error printed with the
 * manifest (generate), requests lost (verify) or a lab result that contradicts the model, 2 unusable input or bad
 * flags, 70 an internal error (one line, no stack trace), 74 output that cannot be written, 141 a closed output pipe.
 */
import { pathToFileURL } from 'node:url';
import { UsageError } from './args.ts';
import { catchStrayErrors, EXIT_INTERNAL, reportInternalError } from './crash.ts';
import { endQuietlyOnOutputErrors } from './streams.ts';

const HELP = `hitless: roll out LLM model servers behind an InferencePool without dropping requests

Usage:
  hitless generate [--gateway ID] [--model-server ID] [--<input> VALUE ...] [--format yaml|json] [--drain-model 1]
  hitless check FILE... [--gateway ID] [--<input> VALUE ...] [--format text|json|diff|github] [--strict]   (- reads stdin)
  hitless lab [--scenario NAME] [--gateway ID] [--model-server ID] [--runs N] [--seed N] [--check | --publish]
                      (hitless lab --help lists the scenarios)
  hitless verify --url URL --model NAME [--rate N] [--duration S] [--restart deployment/NAME -n NS] ...
                      measure your own endpoint (hitless verify --help)
  hitless policy [--format vap|kyverno] [--deny] [--namespace-selector K=V,...] [--<input> VALUE ...]
                      admission policies that enforce the plan for every InferencePool's pods
  hitless inputs      list every input with its range and default
  hitless --version   the version and the drain model it implements
  hitless rules       list the checker's rules (code, severity, what each looks for)
  hitless --help

Inputs are the drain model's (see "hitless inputs"); bad values exit 2 naming the input and its range.
-- ends the options: every argument after it is a file (hitless check -- --odd-name.yaml).

Exit codes:
  0    ok: no error findings (check), no error printed (generate), nothing lost (verify)
  1    findings at error severity (check), an error printed with the manifest (generate),
       requests lost or the rollout incomplete (verify),
       a lab result that contradicts the model (lab --check)
  2    unusable input or bad flags (the message names the flag, the file or the limit)
  ${EXIT_INTERNAL}   an internal error: a bug in hitless (one line; HITLESS_DEBUG=1 adds the stack)
  74   the output cannot be written (a full disk)
  141  the output pipe was closed (| head)`;

type Command = (argv: string[]) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  generate: async () => (await import('./generate.ts')).runGenerate,
  inputs: async () => (await import('./generate.ts')).runInputs,
  check: async () => (await import('./check.ts')).runCheck,
  // The rules are the checker's own code (the registry imports every rule), so `rules` shares check's bundle.
  rules: async () => (await import('./check.ts')).runRules,
  lab: async () => (await import('./lab.ts')).runLab,
  verify: async () => (await import('./verify.ts')).runVerify,
  policy: async () => (await import('./policy.ts')).runPolicy,
};

/** Run the CLI with the given arguments and return its exit code. */
export async function main(argv: string[]): Promise<number> {
  endQuietlyOnOutputErrors();
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V') {
    process.stdout.write(`${(await import('./version.ts')).versionLine()}\n`);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${HELP}\n`);
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    process.stderr.write(`hitless: unknown command "${name}"; commands: ${Object.keys(COMMANDS).join(', ')}\n`);
    return 2;
  }
  catchStrayErrors(name);
  try {
    return await (await load())(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`hitless ${name}: ${error.message}\n`);
      return 2;
    }
    return reportInternalError(name, error);
  }
}

// Run when this file is the program (node src/cli/main.ts), not when a bundle or a test imports it.
if (
  import.meta.url.endsWith('/src/cli/main.ts')
  && process.argv[1] !== undefined
  && pathToFileURL(process.argv[1]).href === import.meta.url
) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
