/**
 * The data plane a run puts in front of the stand-ins, behind one interface: HAProxy, changed through its runtime
 * API, or nginx, whose upstream is rewritten and reloaded the way NGINX Gateway Fabric does it.
 */
import type { CheckSettings } from './haproxy-config.ts';

export const PROXIES = ['haproxy', 'nginx'] as const;

export type ProxyKind = (typeof PROXIES)[number];

export const PROXY_NAMES: Readonly<Record<ProxyKind, string>> = { haproxy: 'HAProxy', nginx: 'nginx' };

export interface DataPlane {
  pid: number;
  port: number;
  /** What the proxy logged per request id: the pod it chose (null: none) and its own account of the ending. */
  requestLog(): Map<string, { server: string | null; flags: string }>;
  /** Health-check state changes: wall time, server, UP/DOWN (none where the proxy runs no checks). */
  stateChanges: { at: number; server: string; state: string }[];
  /** Stop sending the pod new requests: the picker stops choosing it (drain) or its endpoint goes (maint). */
  remove(pod: string, state: 'drain' | 'maint'): Promise<void>;
  /** Close what still runs on the pod (a gateway's draining timeout); null where the proxy does it itself. */
  closeSessions: ((pod: string) => Promise<void>) | null;
  /** Put a started, healthy pod into rotation. */
  admit(pod: string, port: number): Promise<void>;
}

export interface DataPlaneOptions {
  pods: readonly { name: string; port: number }[];
  /** The slot a replacement pod takes (HAProxy keeps it disabled until then); none without a rolling update. */
  spare?: string;
  checks: CheckSettings | null;
  /** The gateway's draining timeout after a removal, model seconds (nginx: worker_shutdown_timeout). */
  gatewayDrainingSeconds: number | null;
}
