/**
 * Which release of the model server the plan is for, and whether the manifest may pass it the drain flag.
 *
 * The release is, in order: `model-server-version` when given; the release the tag of the server's own image names
 * (the checker reads it the same way); the profile's
 * pinned release when the image is the profile's own preset. Otherwise it is unknown. `releases.ts` reads tags and
 * answers whether a release has the flag; nothing here compares versions.
 *
 * An unknown release still gets the flag, with a warning. The two ways to be wrong are not alike: a binary that
 * predates the flag refuses it at startup, so the new pod never becomes ready, the rollout stops where everyone can
 * see it, and the old pods keep serving; a binary that has the flag but is not given it drains as its default says
 * (vLLM's default, 0, aborts every in-flight request) on every rollout from then on, and nothing shows it. Hitless
 * takes the loud failure and says so in the warning, with how to make the release known.
 */
import type { ModelServerProfile } from '../facts/profiles.ts';
import { drainFlagAt, imageRelease, releaseInImageName, type DrainFlagAt } from '../facts/releases.ts';
import type { DrainInputs } from './resolve.ts';
import type { ReleaseSource } from './plan-types.ts';

export type { ReleaseSource } from './plan-types.ts';

/** The model server's release as the plan sees it, and what it says about the drain flag. */
export interface PlannedRelease {
  release: string | null;
  source: ReleaseSource;
  flagAt: DrainFlagAt;
}

/** The release the inputs describe: given, read from the image tag, or the preset image's pinned release. */
export function planRelease(inputs: DrainInputs, server: ModelServerProfile): PlannedRelease {
  // Only the server's own image names its release: an llm-d image's v0.2.0 is llm-d's release, not vLLM's.
  const fromImage = imageRelease(server, inputs.image);
  let release: string | undefined;
  let source: ReleaseSource;
  if (inputs.modelServerVersion !== undefined) {
    release = inputs.modelServerVersion;
    source = 'given';
  } else if (fromImage !== undefined) {
    release = fromImage;
    source = releaseInImageName(server, inputs.image) ? 'image-name' : 'image';
  } else if (inputs.image === server.image && server.release.pinned !== undefined) {
    release = server.release.pinned;
    source = 'pinned';
  } else {
    source = 'unknown';
  }
  return { release: release ?? null, source, flagAt: drainFlagAt(server, release) };
}

/** Words for where the release came from, for derivations and messages: "0.10.1, from the image tag". */
export function describeRelease(planned: PlannedRelease): string {
  switch (planned.source) {
    case 'given':
      return `${planned.release}, given as model-server-version`;
    case 'image':
      return `${planned.release}, from the image tag`;
    case 'image-name':
      return `${planned.release}, from the image name`;
    case 'pinned':
      return `${planned.release}, the preset image's release`;
    case 'unknown':
      return 'unknown: the image tag names no release';
  }
}
