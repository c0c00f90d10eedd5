/**
 * What the generator's first render needs from the profiles, and how the rest arrives: the selected gateway and
 * model server come as the island's props, every other profile from /data/profiles.json (pages/data/profiles.json.ts),
 * fetched on the reader's first focus or click.
 */
import type { Profiles } from '../../facts/profiles.ts';

/** Every gateway's and model server's id and name, for the selects; which gateways take health-check settings. */
export interface ProfileChoices {
  gateways: { id: string; name: string; healthCheck: boolean }[];
  modelServers: { id: string; name: string }[];
}

/** Where the build writes every profile as JSON. */
const PROFILES_URL = '/data/profiles.json';

/** The choices for the selects, from the full profiles (at build time). */
export function choicesOf(profiles: Profiles): ProfileChoices {
  return {
    gateways: profiles.gateways.map((g) => ({ id: g.id, name: g.name, healthCheck: g.healthCheck !== undefined })),
    modelServers: profiles.modelServers.map((m) => ({ id: m.id, name: m.name })),
  };
}

/** The profiles a render for one gateway and model server needs: those two and the request defaults. */
export function selectedProfiles(profiles: Profiles, gatewayId: string, modelServerId: string): Profiles {
  return {
    gateways: profiles.gateways.filter((g) => g.id === gatewayId),
    modelServers: profiles.modelServers.filter((m) => m.id === modelServerId),
    requestDefaults: profiles.requestDefaults,
    valueRanges: profiles.valueRanges,
    controllers: [],
    otherServers: [],
  };
}

/** How a RegExp (a model server's `release.tagPattern`) travels in the JSON: its source and flags. */
interface RegExpJson {
  $regexp: string;
  flags: string;
}

/** The profiles as JSON; regular expressions become `{ "$regexp": source, "flags": flags }`. */
export function profilesToJson(profiles: Profiles): string {
  return JSON.stringify(profiles, (_key, value: unknown) =>
    value instanceof RegExp ? ({ $regexp: value.source, flags: value.flags } satisfies RegExpJson) : value,
  );
}

/** Profiles back from `profilesToJson`, regular expressions included. */
export function profilesFromJson(text: string): Profiles {
  return JSON.parse(text, (_key, value: unknown) => {
    const r = value as Partial<RegExpJson> | null;
    return r !== null && typeof r === 'object' && typeof r.$regexp === 'string' && typeof r.flags === 'string'
      ? new RegExp(r.$regexp, r.flags)
      : value;
  }) as Profiles;
}

let allProfiles: Promise<Profiles> | undefined;

/** Every profile, fetched once (a failed fetch is retried on the next call). */
export function loadAllProfiles(): Promise<Profiles> {
  allProfiles ??= fetch(PROFILES_URL)
    .then((response) => {
      if (!response.ok) throw new Error(`${PROFILES_URL}: HTTP ${response.status}`);
      return response.text().then(profilesFromJson);
    })
    .catch((error: unknown) => {
      allProfiles = undefined;
      throw error;
    });
  return allProfiles;
}
