#!/usr/bin/env node
/**
 * The hitless CLI: `generate` writes the annotated manifest, `check` reviews manifests you run,
 * `lab` runs the drain lab. Exit codes: 0 ok, 1 findings at error severity (check), an error printed with the
 * manifest (generate), requests lost (verify) or a lab result that contradicts the model, 2 unusable input or bad
 * flags, 70 an internal error (one line, no stack trace), 74 output that cannot be written, 141 a closed output pipe.
 */
import { pathToFileURL } from 'node:url';
import { asksForHelp, didYouMean, UsageError } from './args.ts';
import { catchStrayErrors, EXIT_INTERNAL, reportInternalError } from './crash.ts';
import { endQuietlyOnOutputErrors } from './streams.ts';

/** The help text; the install line names this version's tarball, as the README and the site do. */
const help = (version: string) => `hitless: roll out LLM model servers behind an InferencePool without dropping requests

Install (Node 22.12 or later; the package is not on the npm registry yet):
  npm install -g ./hitless-${version}.tgz      the release tarball (npm run pack:cli in a checkout makes it)

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
  hitless --help      this text; hitless COMMAND --help (or -h) for one command

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

/** A subcommand: what runs it, and its help (`hitless <command> --help` or `-h`). */
interface Command {
  run: (argv: string[]) => Promise<number>;
  help: string;
}

/** A command from its module: the function that runs it and its help text. */
function command<M>(module: M, pick: (m: M) => [Command['run'], string]): Command {
  const [run, help] = pick(module);
  return { run, help };
}

// scripts/build-cli.ts reads this table (one line each) to bundle every command's module.
const COMMANDS: Record<string, () => Promise<Command>> = {
  generate: async () => command(await import('./generate.ts'), (m) => [m.runGenerate, m.GENERATE_HELP]),
  inputs: async () => command(await import('./generate.ts'), (m) => [m.runInputs, m.INPUTS_HELP]),
  check: async () => command(await import('./check.ts'), (m) => [m.runCheck, m.CHECK_HELP]),
  // The rules are the checker's own code (the registry imports every rule), so `rules` shares check's bundle.
  rules: async () => command(await import('./check.ts'), (m) => [m.runRules, m.RULES_HELP]),
  lab: async () => command(await import('./lab.ts'), (m) => [m.runLab, m.LAB_HELP]),
  verify: async () => command(await import('./verify.ts'), (m) => [m.runVerify, m.VERIFY_HELP]),
  policy: async () => command(await import('./policy.ts'), (m) => [m.runPolicy, m.POLICY_HELP]),
};

export async function main(argv: string[]): Promise<number> {
  endQuietlyOnOutputErrors();
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-V') {
    process.stdout.write(`${(await import('./version.ts')).versionLine()}\n`);
    return 0;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${help((await import('./version.ts')).packageVersion())}\n`);
    return 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    const known = Object.keys(COMMANDS);
    process.stderr.write(
      `hitless: unknown command "${name}".${didYouMean(name.replace(/^-+/, ''), known)} Commands: ${known.join(', ')} (hitless --help)\n`,
    );
    return 2;
  }
  catchStrayErrors(name);
  try {
    const command = await load();
    if (asksForHelp(rest)) {
      process.stdout.write(`${command.help}\n`);
      return 0;
    }
    return await command.run(rest);
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
