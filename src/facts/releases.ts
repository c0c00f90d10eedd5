/**
 * Model-server releases: reading a release from an image tag, ordering releases, and asking what a release has.
 *
 * This is the one seam between the facts (content/model-servers/*.yaml, per release) and their readers (the plan,
 * the emitter, the checker, the pages). Readers ask these functions; they never compare version strings themselves.
 */
/** A release as its numeric parts, most significant first (`0.18.1` → [0, 18, 1], `25.05` → [25, 5]). */
export type ReleaseParts = readonly number[];

/** A release as data writes it: `0.18.1`, `v3.3.5`, `25.05` (up to four numeric parts). */
export const RELEASE = /^v?(\d+(?:\.\d+){0,3})$/;

/** Split a release such as `0.18.1`, `v3.3.5` or `25.05` into numbers; undefined when it is not one. */
export function releaseParts(release: string): ReleaseParts | undefined {
  const m = RELEASE.exec(release.trim());
  return m ? m[1].split('.').map(Number) : undefined;
}

/**
 * Order two releases: negative when `a` is older, 0 when equal, positive when newer. Missing parts count as 0,
 * so `0.18` equals `0.18.0`. Throws on text that is not a release (callers check with `releaseParts` first).
 */
export function compareReleases(a: string, b: string): number {
  const pa = releaseParts(a);
  const pb = releaseParts(b);
  if (!pa || !pb) throw new Error(`not a release: "${pa ? b : a}"`);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The tag of an image reference (`repo/name:tag@sha256:…` → `tag`), or undefined when it has none. */
export function imageTag(image: string): string | undefined {
  const withoutDigest = image.split('@')[0];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.indexOf(':', lastSlash + 1);
  return colon === -1 ? undefined : withoutDigest.slice(colon + 1) || undefined;
}

/**
 * The release an image runs, read from its tag with the profile's `release.tagPattern` (whose first group is the
 * release), or undefined when the tag names no release (`latest`, `server-cuda`, a digest only).
 */
export function releaseFromImage(server: { release: { tagPattern: RegExp } }, image: string): string | undefined {
  const tag = imageTag(image);
  if (tag === undefined) return undefined;
  const m = server.release.tagPattern.exec(tag);
  if (!m || m[1] === undefined || !releaseParts(m[1])) return undefined;
  return m[1];
}

/** What telling a server's own image needs from its profile: the preset image, its other images, how tags name releases. */
interface ServerImage {
  image: string;
  release: { tagPattern: RegExp; clientTags?: RegExp };
  images?: readonly OtherImage[];
}

/** One of a server's other images (model-server data `images`). */
interface OtherImage {
  repository?: string;
  repositoryPattern?: RegExp;
  tagPattern?: RegExp;
  entrypointStartsServer: boolean;
  entrypointForks?: { until: string };
}

/** Whether two repositories are one: equal, or the same last path part (a mirror: `ghcr.io/x/vllm-openai`). */
function sameRepository(repo: string, other: string): boolean {
  return repo === other || (repo !== '' && repo.split('/').pop() === other.split('/').pop());
}

/**
 * The profile's image an image is, if any: its preset image's repository (whose entrypoint starts the server and
 * whose tags follow `release.tagPattern`) or one of its other `images`.
 */
function serverImageOf(profile: ServerImage, image: string): OtherImage | undefined {
  // A client tag of the server's repository (Triton's -py3-sdk) holds the clients, not the server.
  if (isClientImage(profile, image)) return undefined;
  const repo = imageRepository(image);
  if (sameRepository(repo, imageRepository(profile.image)))
    return { tagPattern: profile.release.tagPattern, entrypointStartsServer: true };
  // A vendor's repository is matched whole (or under a mirror's path prefix): its last part alone (`rocm/vllm` →
  // `vllm`) is a name anyone's own build may carry.
  return profile.images?.find((i) =>
    i.repositoryPattern ? i.repositoryPattern.test(repo) : isListed(repo, i.repository ?? ''),
  );
}

/** Whether a repository is a listed one: the whole of it, or under a mirror's path prefix. */
function isListed(repo: string, listed: string): boolean {
  const whole = imageRepository(listed);
  return repo === whole || repo.endsWith(`/${whole}`);
}

/** The release a repository name carries, by an image's `repositoryPattern`: its groups joined with dots. */
function releaseFromRepository(pattern: RegExp, image: string): string | undefined {
  const m = pattern.exec(imageRepository(image));
  const release = m?.slice(1).join('.');
  return release && releaseParts(release) ? release : undefined;
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

/** Whether the image's release is read from its name (a Deep Learning Container's repository) rather than its tag. */
export function releaseInImageName(profile: ServerImage, image: string): boolean {
  return serverImageOf(profile, image)?.repositoryPattern !== undefined;
}

/**
 * The server release an image runs, read from its tag only when the image is one of the server's own whose tags
 * name its releases (an llm-d image's tag is llm-d's release; a vendor's product version is not the server's), or
 * from its name where the data gives a `repositoryPattern`.
 */
export function imageRelease(profile: ServerImage, image: string): string | undefined {
  const own = serverImageOf(profile, image);
  if (own?.repositoryPattern) return releaseFromRepository(own.repositoryPattern, image);
  return own?.tagPattern ? releaseFromImage({ release: { tagPattern: own.tagPattern } }, image) : undefined;
}

/**
 * Whether the image's entrypoint starts the server from a shell without exec at this release (model-server data
 * `entrypointForks`): the shell is PID 1 and the server never gets SIGTERM. The first release that execs it, or
 * undefined when this one does or the data does not say.
 */
export function entrypointForks(profile: ServerImage, image: string, release: string): { until: string } | undefined {
  const until = serverImageOf(profile, image)?.entrypointForks?.until;
  return until !== undefined && compareReleases(release, until) < 0 ? { until } : undefined;
}

/** Whether the image is one of the server's client images by its tag (Triton's `-py3-sdk`): it runs no server. */
export function isClientImage(profile: ServerImage, image: string): boolean {
  const tag = imageTag(image);
  return tag !== undefined && profile.release.clientTags?.test(tag) === true;
}

/** Whether the server's data names the image: its preset image's repository or one of its other `images`. */
export function listsImage(profile: ServerImage, image: string): boolean {
  return serverImageOf(profile, image) !== undefined;
}

/** Whether an image is one of the server's own whose entrypoint starts it: `args` alone then run the server. */
export function isServerImage(profile: ServerImage, image: string): boolean {
  return serverImageOf(profile, image)?.entrypointStartsServer === true;
}

/** Whether `release` falls in [since, until): `since` inclusive, `until` exclusive; absent bounds are open. */
export function releaseInRange(release: string, range: { since?: string; until?: string }): boolean {
  if (range.since !== undefined && compareReleases(release, range.since) < 0) return false;
  if (range.until !== undefined && compareReleases(release, range.until) >= 0) return false;
  return true;
}

/** What a release says about the model server's drain flag. */
export type DrainFlagAt =
  /** The server has no drain flag in any release (its drain kind is not `flag`). */
  | { kind: 'no-flag' }
  /** The release has the flag. */
  | { kind: 'available'; flag: string }
  /** The release predates the flag; `since` is the first release that has it. */
  | { kind: 'too-old'; flag: string; since: string }
  /** The release is unknown (the tag names none and none was given): whether it has the flag cannot be told. */
  | { kind: 'unknown-release'; flag: string; since?: string };

/** Whether a release of the server has its drain flag. `release` undefined means it could not be told. */
export function drainFlagAt(
  server: { drain: { kind: string; flag?: string; minVersion?: string } },
  release: string | undefined,
): DrainFlagAt {
  const { drain } = server;
  if (drain.kind !== 'flag' || !drain.flag) return { kind: 'no-flag' };
  const since = drain.minVersion;
  if (since === undefined) return { kind: 'available', flag: drain.flag };
  if (release === undefined || !releaseParts(release)) return { kind: 'unknown-release', flag: drain.flag, since };
  return compareReleases(release, since) < 0
    ? { kind: 'too-old', flag: drain.flag, since }
    : { kind: 'available', flag: drain.flag };
}

/** The recognised server without a drain profile (content/other-servers/) whose image this is, if any. */
export function otherServerOf<T extends { images: readonly { repository: string }[] }>(
  servers: readonly T[],
  image: string,
): T | undefined {
  const repo = imageRepository(image);
  return servers.find((s) => s.images.some((i) => isListed(repo, i.repository)));
}
