/**
 * Tell which model server a pod runs, from the profiles' own data: the engine-type label GIE uses, the
 * image repository, the command, and the drain flag. The container with the strongest evidence wins.
 */
import { ENGINE_TYPE_LABEL } from '../emit.ts';
import type { ModelServerProfile, Profiles } from '../profiles.ts';
import type { PodTemplate } from './locate.ts';
import type { Container } from './pod.ts';

/** A model server found in a pod template, the container running it, and why the checker thinks so. */
export interface Identified {
  profile: ModelServerProfile;
  container: Container;
  evidence: string[];
}

/** An image reference without registry host, tag or digest: `docker.io/vllm/vllm-openai:v1` → `vllm/vllm-openai`. */
export function imageRepository(image: string): string {
  const noDigest = image.split('@')[0];
  const parts = noDigest.split('/');
  const last = parts.pop() ?? '';
  const name = [...parts, last.split(':')[0]];
  if (name.length > 1 && /[.:]|^localhost$/.test(name[0])) name.shift();
  if (name[0] === 'library') name.shift();
  return name.join('/');
}

/** The tag of an image reference, if any. */
export function imageTag(image: string): string | undefined {
  const last = image.split('@')[0].split('/').pop() ?? '';
  const colon = last.indexOf(':');
  return colon === -1 ? undefined : last.slice(colon + 1);
}

const GENERIC_WORDS = new Set(['python', 'python3', '-m', '-c', 'exec', 'serve']);

function basename(word: string): string {
  return word.split('/').pop() ?? word;
}

/** Score how strongly a container looks like a profile's server. */
function score(profile: ModelServerProfile, container: Container, labels: Record<string, string>): { points: number; evidence: string[] } {
  let points = 0;
  const evidence: string[] = [];
  const add = (n: number, why: string) => { points += n; evidence.push(why); };
  const repo = imageRepository(container.image);
  const profileRepo = imageRepository(profile.image);
  const words = container.line.tokens.map((t) => t.text);
  if (labels[ENGINE_TYPE_LABEL] === profile.engineType) add(3, `label ${ENGINE_TYPE_LABEL}: ${profile.engineType}`);
  if (repo === profileRepo) add(4, `image ${repo}`);
  else if (repo.split('/').pop() === profileRepo.split('/').pop()) add(3, `image ${repo}`);
  else if (new RegExp(`(^|[-_./])${profile.id}($|[-_./])`).test(repo)) add(1, `image name ${repo}`);
  const distinctive = (profile.command ?? []).filter((w) => !GENERIC_WORDS.has(basename(w)));
  const commandWord = words.find((w) => distinctive.includes(w) || distinctive.includes(basename(w)) || basename(w) === profile.id);
  if (commandWord) add(4, `command ${commandWord}`);
  if (profile.drain.flag && words.some((w) => w.replaceAll('_', '-').split('=')[0] === profile.drain.flag)) add(2, `flag ${profile.drain.flag}`);
  return { points, evidence };
}

/** The model server a pod template runs, or `undefined` when no container looks like a known one. */
export function identifyServer(template: PodTemplate, containers: Container[], profiles: Profiles): Identified | undefined {
  let best: (Identified & { points: number }) | undefined;
  for (const container of containers) {
    for (const profile of profiles.modelServers) {
      const { points, evidence } = score(profile, container, template.labels);
      const better = !best || points > best.points || (points === best.points && container.gpus > best.container.gpus);
      if (points > 0 && better) best = { profile, container, evidence, points };
    }
  }
  return best ? { profile: best.profile, container: best.container, evidence: best.evidence } : undefined;
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
