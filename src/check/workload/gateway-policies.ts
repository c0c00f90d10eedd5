/**
 * The gateway objects the checker reads, taken from the gateway profiles: the kinds of each profile's
 * extra manifests (GKE's HealthCheckPolicy, GCPBackendPolicy), and where the request timeout and the
 * connection-draining timeout live in them (`GCPBackendPolicy spec.default.timeoutSec`, default 30 s).
 */
import type { GatewayProfile, GatewaySecondsSetting, Profiles } from '../../facts/profiles.ts';

/** A gateway policy kind, its API group and the gateway it belongs to. */
export interface PolicyKind {
  kind: string;
  group: string;
  gateway: GatewayProfile;
}

/** A gateway setting in seconds inside a policy object. */
export interface PolicySetting {
  gateway: GatewayProfile;
  role: 'requestTimeout' | 'connectionDraining';
  kind: string;
  /** Path from the object to the value. */
  path: string[];
  defaultSeconds: number;
  maxSeconds: number;
  /** As the profile writes it: `GCPBackendPolicy spec.default.timeoutSec`. */
  setting: string;
}

/** The API group of an apiVersion (`apps/v1` → `apps`, `v1` → ``). */
export function groupOf(apiVersion: unknown): string {
  return typeof apiVersion === 'string' && apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
}

/** Every policy kind some gateway profile's extra manifests create. */
export function policyKinds(profiles: Profiles): PolicyKind[] {
  return profiles.gateways.flatMap((gateway) =>
    (gateway.extraManifests ?? []).map((extra) => ({
      kind: extra.kind,
      group: groupOf(extra.manifest.apiVersion),
      gateway,
    })),
  );
}

function settingFrom(
  gateway: GatewayProfile,
  role: PolicySetting['role'],
  setting: GatewaySecondsSetting | undefined,
): PolicySetting[] {
  const m = setting ? /^(\S+) (\S+)$/.exec(setting.setting) : null;
  if (!setting || !m) return [];
  return [
    {
      gateway,
      role,
      kind: m[1],
      path: m[2].split('.'),
      defaultSeconds: setting.defaultSeconds,
      maxSeconds: setting.maxSeconds,
      setting: setting.setting,
    },
  ];
}

/** Every request-timeout and connection-draining setting the gateway profiles place in a policy. */
export function policySettings(profiles: Profiles): PolicySetting[] {
  return profiles.gateways.flatMap((g) => [
    ...settingFrom(g, 'requestTimeout', g.requestTimeout),
    ...settingFrom(g, 'connectionDraining', g.connectionDraining),
  ]);
}
