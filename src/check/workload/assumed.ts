/**
 * Read, given or assumed (issue #30): the inputs a finding rests on, and whether the check knew them. An input is
 * known when the manifest states it (read: a flag, a probe, a policy naming the gateway, the generator's header) or
 * the reader gave it (a check setting); otherwise the check used a default, which the manifest never said. An error
 * that rests on an assumed input is reported as a warning naming what to set (`--strict` fails the run on it still).
 */

/** What a rule's errors can rest on, each with the settings that make it known (any one set of them, whole). */
export const BASES = {
  // plan.ts: the longest request is given, or max output tokens × time per token (× prefill overhead).
  'longest request': [['max-request-seconds'], ['max-output-tokens', 'tpot-ms']],
  // plan-gateway.ts: the removal p99 is given, or the gateway's data gives it once the gateway is known.
  'removal p99': [['removal-seconds'], ['gateway']],
  'model load time': [['startup-seconds']],
  'spare GPUs': [['spare-gpus']],
  'Kubernetes version': [['kubernetes-version']],
} as const satisfies Record<string, readonly (readonly string[])[]>;

/** An input a rule's errors can rest on. */
export type Basis = keyof typeof BASES;

/** The bases of `bases` the check did not know, each with the settings that would make it known. */
export function assumedBases(
  bases: readonly Basis[],
  known: (flag: string) => boolean,
): { basis: Basis; flags: readonly string[] }[] {
  return bases
    .filter((basis) => !BASES[basis].some((flags) => flags.every(known)))
    .map((basis) => ({ basis, flags: BASES[basis].at(-1) ?? [] }));
}

/** " This rests on an assumed longest request (a default …), so it is a warning until you give --max-output-tokens and --tpot-ms (…)." */
export function assumedText(assumed: readonly { basis: Basis; flags: readonly string[] }[]): string {
  const { what, one, list } = assumedParts(assumed);
  return ` This rests on an assumed ${what} (${one ? 'a default' : 'defaults'} the manifest does not state), so it is a warning until you give ${list} (your real ${list.includes(' and ') ? 'values' : 'value'}).`;
}

/** " This rests on an assumed longest request (a default …): give --max-output-tokens and --tpot-ms (…) to judge it.", for a warning that stays one. */
export function assumedNote(assumed: readonly { basis: Basis; flags: readonly string[] }[]): string {
  const { what, one, list } = assumedParts(assumed);
  return ` This rests on an assumed ${what} (${one ? 'a default' : 'defaults'} the manifest does not state): give ${list} (your real ${list.includes(' and ') ? 'values' : 'value'}) to judge it.`;
}

function assumedParts(assumed: readonly { basis: Basis; flags: readonly string[] }[]) {
  const flags = [...new Set(assumed.flatMap((a) => a.flags))].map((f) => `--${f}`);
  return {
    what: assumed.map((a) => a.basis).join(' and '),
    one: assumed.length === 1,
    list: flags.length > 1 ? `${flags.slice(0, -1).join(', ')} and ${flags.at(-1)}` : flags[0],
  };
}

/** Where an input a finding rests on came from: read from the manifest, given by the reader, or assumed (a default). */
export interface Rest {
  basis: Basis;
  source: 'read' | 'given' | 'assumed';
  /** The settings that state it: the ones that did, or, when assumed, the ones to give. */
  settings: readonly string[];
}

/**
 * Each basis with its source, from each setting's (`given`, `read`, or undefined for a default): given when the reader
 * set every setting of the first set that is known, else read.
 */
export function restsOf(bases: readonly Basis[], source: (flag: string) => 'given' | 'read' | undefined): Rest[] {
  return bases.map((basis) => {
    const known = BASES[basis].find((flags) => flags.every((f) => source(f) !== undefined));
    if (!known) return { basis, source: 'assumed', settings: BASES[basis].at(-1) ?? [] };
    return { basis, source: known.every((f) => source(f) === 'given') ? 'given' : 'read', settings: known };
  });
}
