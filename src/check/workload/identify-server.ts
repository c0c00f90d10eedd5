/**
 * Tell which model server a pod runs, from the profiles' own data: the engine-type label GIE uses, the
 * image repository, the command, and the drain flag. The container with the strongest evidence wins.
 */
import { ENGINE_TYPE_LABEL } from '../../emit/bundle.ts';
import type { ModelServerProfile, Profiles } from '../../facts/profiles.ts';
import { imageRepository, isServerImage } from '../../facts/releases.ts';
import type { PodTemplate } from './locate.ts';
import { findFlag } from './command-line.ts';
import type { Container } from './pod.ts';
import { findInvocation, imageStillRuns, invocationText, serverArgs, type Invocation } from './server-invocation.ts';

/** A model server found in a pod template, the container running it, and why the checker thinks so. */
export interface Identified {
  profile: ModelServerProfile;
  container: Container;
  evidence: string[];
  /** The server's own invocation in the container, or why it was not found. */
  invocation: Invocation;
}

/**
 * Score how strongly a container runs a profile's server. Only the server's own invocation or the image
 * repository identify it (`core` counts those); the engine-type label and the drain flag add weight to that
 * evidence but never identify a server alone (simulators and mocks carry the label).
 */
function score(
  profile: ModelServerProfile,
  container: Container,
  labels: Record<string, string>,
): { points: number; core: number; evidence: string[]; invocation: Invocation } {
  let points = 0;
  const evidence: string[] = [];
  const add = (n: number, why: string) => {
    points += n;
    evidence.push(why);
  };
  const imageIsServer = isServerImage(profile, container.image);
  const invocation = findInvocation(container.line, profile, imageIsServer);
  if (invocation.found && invocation.entrypointAssumed)
    add(2, `args ${invocationText(invocation)} (the image's entrypoint, not known, taken to run them)`);
  else if (invocation.found && invocation.how !== 'entrypoint') add(4, `command ${invocationText(invocation)}`);
  // A command that runs another Python program in place of the image's entrypoint (SGLang's router on SGLang's
  // image) makes the image say nothing of what runs.
  if (imageIsServer && imageStillRuns(container.line, profile, invocation))
    add(4, `image ${imageRepository(container.image)}`);
  const core = points;
  if (points === 0) return { points, core, evidence, invocation };
  if (labels[ENGINE_TYPE_LABEL] === profile.engineType) add(1, `label ${ENGINE_TYPE_LABEL}: ${profile.engineType}`);
  if (profile.drain.flag && invocation.found && findFlag(serverArgs(invocation), profile.drain.flag))
    add(1, `flag ${profile.drain.flag}`);
  return { points, core, evidence, invocation };
}

/** The model server a pod template runs, or `undefined` when no container looks like a known one. */
export function identifyServer(
  template: PodTemplate,
  containers: Container[],
  profiles: Profiles,
): Identified | undefined {
  let best: (Identified & { points: number; core: number }) | undefined;
  for (const container of containers) {
    for (const profile of profiles.modelServers) {
      const { points, core, evidence, invocation } = score(profile, container, template.labels);
      // The container holding the most accelerators is the pod's server; among equals, the one whose command and
      // image say so more, then the first. The label and the drain flag only choose between profiles for one
      // container: a fix that adds the flag to a second server container must not make that one the first.
      const better =
        !best
        || container.gpus > best.container.gpus
        || (container.gpus === best.container.gpus && core > best.core)
        || (container === best.container && points > best.points);
      if (points > 0 && better) best = { profile, container, evidence, invocation, points, core };
    }
  }
  return best
    ? { profile: best.profile, container: best.container, evidence: best.evidence, invocation: best.invocation }
    : undefined;
}

/** The flag a profile's arguments put before a placeholder (`{model}` → `--model`, `{port}` → `--http-port`). */
export function flagFor(profile: ModelServerProfile, placeholder: '{model}' | '{port}'): string | undefined {
  const at = profile.args.findIndex((a) => a.includes(placeholder));
  if (at === -1) return undefined;
  const arg = profile.args[at];
  if (arg === placeholder) return profile.args[at - 1]?.startsWith('-') ? profile.args[at - 1] : undefined;
  const inline = /^(--?[^=]+)=/.exec(arg);
  return inline ? inline[1] : undefined;
}
