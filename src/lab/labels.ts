/**
 * What the lab calls its stand-ins, so that no reader mistakes them for the real thing: the gateway is always
 * HAProxy or nginx doing what the named gateway's mechanism does, and the pod's log is the stand-in's, shaped like the
 * real server's log at the release its data file's `shutdownLog.follows` names. Used by the CLI's reports and by the lab page.
 */

/** The sentence that labels a stand-in's log: stand-in output, shaped like which server's log at which release. */
export function standInLogLabel(follows: string | undefined, modelServerName: string): string {
  return follows
    ? `Stand-in output, shaped like the log of ${follows}. Times are model seconds after the deletion.`
    : `Stand-in output; it does not follow a ${modelServerName} release. Times are model seconds after the deletion.`;
}

/**
 * What stands in for the gateway: "HAProxy with Istio's removal delay", never just the gateway's name. nginx runs no
 * health checks, so its label for an endpoint-view gateway names only the removal delay.
 */
export function standInGatewayLabel(mechanism: string, gatewayName: string, proxy = 'haproxy'): string {
  const name = proxy === 'nginx' ? 'nginx' : 'HAProxy';
  if (mechanism === 'health-check') return `${name} with health checks only`;
  if (mechanism === 'endpoint-view' && proxy !== 'nginx')
    return `${name} with ${gatewayName}'s removal delay and health checks`;
  return `${name} with ${gatewayName}'s removal delay`;
}
