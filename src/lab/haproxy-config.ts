/**
 * The HAProxy configuration the lab writes: one frontend on 127.0.0.1, one round-robin backend of
 * model-server stand-ins, the runtime API on a unix socket (level admin, for the control plane's
 * drain commands), and every knob that decides whether a drop is seen or hidden written out.
 */
import { toWallMs } from './scale.ts';

/** Active health checks, in model seconds. */
export interface CheckSettings {
  path: string;
  intervalSeconds: number;
  fall: number;
  rise: number;
  timeoutSeconds: number;
}

export interface ServerSlot {
  name: string;
  port: number;
  /** A spare slot (the replacement pod) starts disabled until the control plane sets it ready. */
  disabled?: boolean;
}

export interface HaproxyConfigOptions {
  frontendPort: number;
  adminSocket: string;
  servers: readonly ServerSlot[];
  /** null: no active checks (the gateway routes where the Endpoint Picker points). */
  checks: CheckSettings | null;
  /** HAProxy's built-in default is 3; the lab writes 0 so refused connections show as 503s. */
  retries?: number;
  /** Off by default: redispatch would retry a refused request on another pod and hide the drop. */
  redispatch?: boolean;
}

/** The backend's name in the config and in runtime commands. */
export const BACKEND = 'be_pods';

/** The config text. Times are converted from model seconds to wall-clock milliseconds. */
export function haproxyConfig(o: HaproxyConfigOptions): string {
  const lines = [
    '# Written by the Hitless drain lab; times are wall-clock ms (1 model second = 100 ms).',
    'global',
    '    nbthread 1',
    `    stats socket ${o.adminSocket} mode 600 level admin`,
    '    log stdout format raw local0 info',
    '',
    'defaults',
    '    mode http',
    '    log global',
    '    # request id, server, status, termination state, retries, total time',
    '    log-format "req %ID %s %ST %tsc %rc %Tt"',
    '    # send each streamed chunk at once instead of waiting to coalesce (MSG_MORE held chunks ~200 ms)',
    '    option http-no-delay',
    '    # a new server connection per request: the stand-ins close theirs after each response',
    '    http-reuse never',
    `    # knob: retries on a refused connection (HAProxy's default is 3, which only delays the 503)`,
    `    retries ${o.retries ?? 0}`,
    `    # knob: redispatch retries on another server and hides refused connections`,
    o.redispatch ? '    option redispatch' : '    no option redispatch',
    '    timeout connect 1s',
    '    timeout client 30s',
    '    timeout server 30s',
  ];
  if (o.checks) lines.push(`    timeout check ${toWallMs(o.checks.timeoutSeconds)}ms`);
  lines.push(
    '',
    'frontend fe_lab',
    `    bind 127.0.0.1:${o.frontendPort}`,
    '    unique-id-format %[req.hdr(x-lab-id)]',
    `    default_backend ${BACKEND}`,
    '',
    `backend ${BACKEND}`,
    '    balance roundrobin',
  );
  if (o.checks) {
    const inter = toWallMs(o.checks.intervalSeconds);
    lines.push(
      `    option httpchk GET ${o.checks.path}`,
      `    default-server inter ${inter} fastinter ${inter} downinter ${inter} fall ${o.checks.fall} rise ${o.checks.rise}`,
    );
  }
  for (const s of o.servers)
    lines.push(`    server ${s.name} 127.0.0.1:${s.port}${o.checks ? ' check' : ''}${s.disabled ? ' disabled' : ''}`);
  return `${lines.join('\n')}\n`;
}
