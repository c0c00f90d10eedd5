/**
 * The health-check inputs (interval, unhealthy threshold, timeout, propagation) describe a gateway that notices a
 * gone pod only by failed checks. Gateways without health-check data in their profile take a removal p99 instead,
 * and the drain core refuses these inputs for them, so the forms show the fields disabled there.
 */

/** What these rules read of the gateways: the full profiles, or the generator's choices (profile-choices.ts). */
interface GatewayList {
  gateways: readonly { id: string; name: string; healthCheck?: unknown }[];
}

/** The four health-check fields, by flag. */
export const HEALTH_CHECK_FLAGS: readonly string[] = [
  'health-check-interval-seconds',
  'health-check-unhealthy-threshold',
  'health-check-timeout-seconds',
  'propagation-seconds',
];

/**
 * Whether a health-check field is disabled: the gateway has no health-check data and the reader has not typed a
 * value there (a value the core refuses stays editable, so it can be cleared).
 */
export function healthCheckDisabled(
  profiles: GatewayList,
  gatewayId: string,
  raw: Record<string, string>,
  flag: string,
): boolean {
  if (!HEALTH_CHECK_FLAGS.includes(flag)) return false;
  if ((raw[flag] ?? '').trim() !== '') return false;
  const gateway = profiles.gateways.find((g) => g.id === gatewayId);
  if (!gateway)
    throw new Error(
      `gateway must be one of ${profiles.gateways.map((g) => g.id).join(', ')} (got ${JSON.stringify(gatewayId)})`,
    );
  return !gateway.healthCheck;
}

/** The help a disabled health-check field shows: "Only for “Your own gateway”: other gateways use their removal p99." */
export function healthCheckDisabledHelp(profiles: GatewayList): string {
  const names = profiles.gateways.filter((g) => g.healthCheck).map((g) => `\u201c${g.name}\u201d`);
  return `Only for ${names.join(' or ')}: other gateways use their removal p99.`;
}
