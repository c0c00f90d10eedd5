/**
 * The gateway's own settings a plan sizes (a request timeout, connection draining), for gateways whose profile
 * has them: each from a wanted value, kept between its floor (or default) and its maximum.
 */
import type { CappedSetting, DerivationStep, Plan } from './plan-types.ts';

import type { GatewayProfile, GatewaySecondsSetting } from '../facts/profiles.ts';
import type { DrainInputs } from './resolve.ts';
import { ceilSeconds, formatFactor, formatSeconds } from './seconds.ts';

/**
 * A gateway setting sized from a wanted value: never below its floor (the profile's `floorSeconds`, else the
 * gateway's default), never above its maximum.
 */
function sizeGatewaySetting(
  wanted: number,
  setting: GatewaySecondsSetting,
  wantedFormula: string,
): { seconds: number; formula: string; capped?: CappedSetting } {
  if (wanted > setting.maxSeconds) {
    return {
      seconds: setting.maxSeconds,
      formula: `${wantedFormula} = ${formatSeconds(wanted)}, capped at the ${formatSeconds(setting.maxSeconds)} maximum`,
      capped: { setting: setting.setting, wantedSeconds: wanted, maxSeconds: setting.maxSeconds },
    };
  }
  if (setting.floorSeconds !== undefined && wanted <= setting.floorSeconds) {
    return {
      seconds: setting.floorSeconds,
      formula: `${wantedFormula} = ${formatSeconds(wanted)}, kept at the ${formatSeconds(setting.floorSeconds)} floor (${setting.floorReason})`,
    };
  }
  if (wanted <= setting.defaultSeconds) {
    return {
      seconds: setting.defaultSeconds,
      formula: `${wantedFormula} = ${formatSeconds(wanted)}, within the ${formatSeconds(setting.defaultSeconds)} default, kept`,
    };
  }
  const above =
    setting.floorSeconds !== undefined
      ? `above the ${formatSeconds(setting.floorSeconds)} floor (${setting.floorReason})`
      : `above the ${formatSeconds(setting.defaultSeconds)} default`;
  return { seconds: wanted, formula: `${wantedFormula}, ${above}` };
}

/** The gateway settings of a plan, and the derivation steps that explain them. */
type GatewaySettings = Pick<
  Plan,
  | 'gatewayRequestTimeoutSeconds'
  | 'gatewayRequestTimeoutNeededSeconds'
  | 'gatewayDrainingSeconds'
  | 'cappedGatewaySettings'
> & { steps: DerivationStep[] };

/** Size the gateway's request timeout and connection draining from the plan's longest request, preStop and drain. */
export function planGatewaySettings(
  gateway: GatewayProfile,
  inputs: DrainInputs,
  {
    maxRequestSeconds,
    preStopSeconds,
    drainSeconds,
  }: { maxRequestSeconds: number; preStopSeconds: number; drainSeconds: number },
): GatewaySettings {
  const result: GatewaySettings = {
    gatewayRequestTimeoutSeconds: null,
    gatewayRequestTimeoutNeededSeconds: null,
    gatewayDrainingSeconds: null,
    cappedGatewaySettings: [],
    steps: [],
  };
  /** Size one setting from what the plan wants, note a cap, and add its derivation step; returns its seconds. */
  const size = (field: string, wanted: number, setting: GatewaySecondsSetting, wantedFormula: string, why: string) => {
    const sized = sizeGatewaySetting(wanted, setting, wantedFormula);
    if (sized.capped) result.cappedGatewaySettings.push(sized.capped);
    result.steps.push({ field, value: sized.seconds, formula: sized.formula, why });
    return sized.seconds;
  };
  if (gateway.requestTimeout) {
    const wanted = withHeadroom(maxRequestSeconds, inputs.drainHeadroomPercent);
    result.gatewayRequestTimeoutNeededSeconds = wanted;
    result.gatewayRequestTimeoutSeconds = size(
      'gatewayRequestTimeoutSeconds',
      wanted,
      gateway.requestTimeout,
      `${formatSeconds(maxRequestSeconds)} longest request (steady state, not drain p99) × ${formatFactor(inputs.drainHeadroomPercent)} headroom`,
      `${gateway.name} cuts a response that runs longer than ${gateway.requestTimeout.setting}, in steady state as well as `
        + 'during a drain; it follows the steady-state longest request, not the drain p99, with the drain headroom.'
        + (gateway.requestTimeout.floorExplanation ? ` ${gateway.requestTimeout.floorExplanation}` : ''),
    );
  }
  if (gateway.connectionDraining) {
    result.gatewayDrainingSeconds = size(
      'gatewayDrainingSeconds',
      preStopSeconds + drainSeconds,
      gateway.connectionDraining,
      `${formatSeconds(preStopSeconds)} preStop + ${formatSeconds(drainSeconds)} drain`,
      `Once ${gateway.name} removes the pod's endpoint, requests in flight get ${gateway.connectionDraining.setting} to finish; `
        + 'the endpoint may go as early as the deletion, and the pod serves until its drain ends.',
    );
  }
  return result;
}

/**
 * A length with the drain headroom, in whole seconds: the drain budget from the longest request, and the least
 * request timeout a route to the pool (or the gateway's own, before its floor or default) may have.
 */
export function withHeadroom(seconds: number, drainHeadroomPercent: number): number {
  return ceilSeconds(seconds * (1 + drainHeadroomPercent / 100));
}
