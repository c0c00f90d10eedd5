/** Start the data plane a setup names, and read each proxy's version. */
import { HAPROXY, haproxyVersion, startHaproxy } from './haproxy.ts';
import { NGINX, nginxVersion, startNginx } from './nginx.ts';
import type { LabResources } from './processes.ts';
import type { DataPlane, DataPlaneOptions, ProxyKind } from './proxy.ts';

/** Where the lab looks for each proxy, and the environment variable that moves it. */
export const PROXY_BINARIES: Readonly<Record<ProxyKind, { path: string; env: string; debian: string }>> = {
  haproxy: { path: HAPROXY, env: 'HITLESS_HAPROXY', debian: 'haproxy' },
  nginx: { path: NGINX, env: 'HITLESS_NGINX', debian: 'nginx-light' },
};

/** A proxy's version, or null when it is not installed. */
export function proxyVersion(proxy: ProxyKind): string | null {
  return proxy === 'nginx' ? nginxVersion() : haproxyVersion();
}

export function startDataPlane(
  proxy: ProxyKind,
  resources: LabResources,
  dir: string,
  options: DataPlaneOptions,
): Promise<DataPlane> {
  return proxy === 'nginx' ? startNginx(resources, dir, options) : startHaproxy(resources, dir, options);
}
