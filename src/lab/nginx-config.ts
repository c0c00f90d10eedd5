/**
 * The nginx configuration the lab writes, in the shape NGINX Gateway Fabric 2.6.7 gives open-source nginx: one
 * `upstream` block holding the ready endpoints, with `zone <name> 512k` (internal/controller/nginx/config/
 * upstreams_template.go and upstreams.go), `proxy_http_version 1.1` and `proxy_pass` to it (servers_template.go). NGF changes an endpoint set by writing the files anew and reloading nginx (its agent
 * sends the master SIGHUP); so does the lab, with every path inside the run's temp dir and the listener on 127.0.0.1.
 */
import { toWallMs } from './scale.ts';

export interface NginxEndpoint {
  name: string;
  port: number;
}

export interface NginxConfigOptions {
  /** The run's temp dir: pid file and temp paths go here. */
  dir: string;
  frontendPort: number;
  /** The ready endpoints, in the order written. */
  endpoints: readonly NginxEndpoint[];
  /** Old workers close what still runs this long after a reload (model seconds); null: they wait for it to end. */
  shutdownTimeoutSeconds: number | null;
}

/** The access log's file name in the run's dir (the lab reads nginx's stdout through a socket, which nginx cannot open by path). */
export const ACCESS_LOG = 'access.log';

const UPSTREAM = 'pool';

/**
 * A path as an nginx string: in double quotes, with `\` and `"` escaped. A `$` (nginx would read a variable in
 * some directives), `{`, `}`, `;` outside quotes or a control character could change the config, so such a path
 * is refused rather than escaped.
 */
export function nginxPath(path: string): string {
  if (/[$\p{Cc}]/u.test(path)) throw new Error(`the lab cannot write ${JSON.stringify(path)} into an nginx config`);
  return `"${path.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The config text. Times are converted from model seconds to wall-clock milliseconds. */
export function nginxConfig(o: NginxConfigOptions): string {
  if (o.endpoints.length === 0) throw new Error('the upstream needs at least one endpoint');
  const at = (name: string) => nginxPath(`${o.dir}/${name}`);
  const lines = [
    '# Written by the Hitless drain lab; times are wall-clock ms (1 model second = 100 ms).',
    '# One worker, as HAProxy runs one thread: the lab measures a proxy, not its spread over cores.',
    'worker_processes 1;',
    "# The workers run as the lab does (root, or the user mapped to root in the lab's user namespace).",
    'user root root;',
    `pid ${at('nginx.pid')};`,
    '# notice: the master logs each reload and each new worker, which is how the lab sees a reload take effect',
    'error_log stderr notice;',
  ];
  if (o.shutdownTimeoutSeconds !== null) {
    lines.push(
      "# knob: the gateway's connection-draining timeout; after a reload, old workers close what still runs",
      `worker_shutdown_timeout ${toWallMs(o.shutdownTimeoutSeconds)}ms;`,
    );
  }
  lines.push(
    '',
    'events {',
    '    worker_connections 1024;',
    '}',
    '',
    'http {',
    '    # request id, the endpoint chosen, status to the client, status from the endpoint',
    "    log_format lab 'req $http_x_lab_id $upstream_addr $status $upstream_status';",
    `    access_log ${at(ACCESS_LOG)} lab;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `    ${kind}_temp_path ${at(kind)};`),
    '',
    `    upstream ${UPSTREAM} {`,
    '        # NGF writes "random two least_conn"; the lab keeps round robin (nginx\'s default), as its HAProxy does,',
    '        # because least_conn sends more requests to a pod that refuses them at once (it looks idle)',
    `        zone ${UPSTREAM} 512k;`,
    "        # knob: max_fails=0; nginx's default (1 in 10 s) would take a refusing pod out after its first refusal",
    ...o.endpoints.map((e) => `        server 127.0.0.1:${e.port} max_fails=0;  # ${e.name.replace(/[^\w-]/g, '')}`),
    '    }',
    '',
    '    server {',
    `        listen 127.0.0.1:${o.frontendPort};`,
    '        location / {',
    '            proxy_http_version 1.1;',
    `            proxy_pass http://${UPSTREAM};`,
    "            # knob: no retry on the next endpoint; NGF's inference path proxies to the one endpoint the",
    '            # Endpoint Picker chose, so a refused connection is a 502 there too',
    '            proxy_next_upstream off;',
    '            # each token is passed on as it arrives (HAProxy: option http-no-delay)',
    '            proxy_buffering off;',
    '            proxy_connect_timeout 1s;',
    '            proxy_send_timeout 30s;',
    '            proxy_read_timeout 30s;',
    '        }',
    '    }',
    '}',
  );
  return `${lines.join('\n')}\n`;
}
