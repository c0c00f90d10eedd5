/**
 * GKE Gateway policy schemas (`networking.gke.io/v1`), written for the tests from GoogleCloudPlatform/gke-gateway-api
 * `apis/networking/v1/{healthcheck,gcpbackendpolicy}_types.go` and the CRDs in `config/crd/`:
 *
 * - HealthCheckPolicy: spec.targetRef {group, kind, name required; namespace}, spec.default {checkIntervalSec 1-300,
 *   timeoutSec 1-300 and not above checkIntervalSec (defaults 5 and 5), healthyThreshold and unhealthyThreshold 1-10,
 *   config {type TCP|HTTP|HTTPS|HTTP2|GRPC plus exactly the matching <type>HealthCheck}, logConfig {enabled}}; each
 *   <type>HealthCheck carries the three CEL rules on CommonHealthCheck (commit 983ac3d, 2026-03-17) that tie
 *   `portSpecification` to `port`/`portName`, modelled as the API server evaluates them (see `portRules`)
 * - GCPBackendPolicy: spec.targetRef as above, spec.default {timeoutSec 1-2147483647, connectionDraining
 *   {drainingTimeoutSec 0-3600}, logging {enabled, sampleRate 0-1000000}, sessionAffinity {type, cookieTtlSec
 *   0-1209600}, maxRatePerEndpoint 1-1e9, securityPolicy, backendPreference DEFAULT|PREFERRED, iap}
 */
import { DNS1123_LABEL, objectMetaSchema, type Schema } from './structural-schema.ts';

export const GKE_API_VERSION = 'networking.gke.io/v1';

const int64 = (minimum: number, maximum: number): Schema => ({ type: 'integer', format: 'int64', minimum, maximum });

/** Gateway API v1alpha2 PolicyTargetReference, as both CRDs embed it. */
const targetRef: Schema = {
  type: 'object',
  required: ['group', 'kind', 'name'],
  properties: {
    group: {
      type: 'string',
      maxLength: 253,
      pattern: /^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/,
    },
    kind: { type: 'string', minLength: 1, maxLength: 63, pattern: /^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$/ },
    name: { type: 'string', minLength: 1, maxLength: 253 },
    namespace: { type: 'string', minLength: 1, maxLength: 63, pattern: DNS1123_LABEL },
  },
};

const commonHealthCheck: Record<string, Schema> = {
  portSpecification: { type: 'string', enum: ['USE_FIXED_PORT', 'USE_NAMED_PORT', 'USE_SERVING_PORT'] },
  port: int64(1, 65535),
  portName: { type: 'string', maxLength: 63, pattern: /[a-z]([-a-z0-9]*[a-z0-9])?/ },
};
type PortFields = { portSpecification?: string; port?: number; portName?: string };

/**
 * CommonHealthCheck's CEL rules. In Kubernetes CEL, reading an absent field (`self.portSpecification` with no
 * portSpecification) is a runtime "no such key" error, which the API server reports as an invalid value; so the
 * USE_FIXED_PORT and USE_NAMED_PORT rules, read literally, fail whenever portSpecification is absent (even with no
 * port fields at all), and the third rule (guarded by `!has(...)`) fails when port or portName is set without it.
 * Only an object that names its portSpecification passes all three; Hitless always writes it.
 */
const portRules = [
  {
    check: (c: PortFields) =>
      c.portSpecification !== undefined
      && (c.portSpecification !== 'USE_FIXED_PORT' || (c.port !== undefined && c.portName === undefined)),
    message:
      'for portSpecification being USE_FIXED_PORT, port must be set and portName must be unset'
      + ' (with portSpecification absent: no such key: portSpecification, evaluating rule)',
  },
  {
    check: (c: PortFields) =>
      c.portSpecification !== undefined
      && (c.portSpecification !== 'USE_NAMED_PORT' || (c.port === undefined && c.portName !== undefined)),
    message:
      'for portSpecification being USE_NAMED_PORT, port must be unset and portName must be set'
      + ' (with portSpecification absent: no such key: portSpecification, evaluating rule)',
  },
  {
    check: (c: PortFields) =>
      c.portSpecification === 'USE_SERVING_PORT' || c.portSpecification === undefined
        ? c.port === undefined && c.portName === undefined
        : true,
    message: 'port and portName must be unset for portSpecification being USE_SERVING_PORT (which is the default)',
  },
] as const;

/** A <type>HealthCheck object with CommonHealthCheck's rules. */
const withPortRules = (properties: Record<string, Schema>): Schema => ({
  type: 'object',
  properties,
  rules: portRules,
});

const httpHealthCheck: Schema = {
  type: 'object',
  rules: portRules,
  properties: {
    ...commonHealthCheck,
    host: {
      type: 'string',
      maxLength: 2048,
      pattern: /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/,
    },
    requestPath: { type: 'string', maxLength: 2048, pattern: /\/[A-Za-z0-9/\-._~%!?$&'()*+,;=:]*$/ },
    proxyHeader: { type: 'string', enum: ['NONE', 'PROXY_V1'] },
    response: { type: 'string', maxLength: 1024, pattern: /^[\x00-\xFF]+$/ },
  },
};
const CONFIG_FIELD: Record<string, string> = {
  TCP: 'tcpHealthCheck',
  HTTP: 'httpHealthCheck',
  HTTPS: 'httpsHealthCheck',
  HTTP2: 'http2HealthCheck',
  GRPC: 'grpcHealthCheck',
};

export const healthCheckPolicySchema: Schema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { type: 'string', enum: [GKE_API_VERSION] },
    kind: { type: 'string', enum: ['HealthCheckPolicy'] },
    metadata: objectMetaSchema,
    spec: {
      type: 'object',
      required: ['targetRef'],
      properties: {
        targetRef,
        default: {
          type: 'object',
          properties: {
            checkIntervalSec: int64(1, 300),
            timeoutSec: int64(1, 300),
            unhealthyThreshold: int64(1, 10),
            healthyThreshold: int64(1, 10),
            config: {
              type: 'object',
              minProperties: 2,
              maxProperties: 2,
              properties: {
                type: { type: 'string', enum: Object.keys(CONFIG_FIELD) },
                tcpHealthCheck: withPortRules({
                  ...commonHealthCheck,
                  request: { type: 'string', maxLength: 1024, pattern: /^[\x00-\xFF]+$/ },
                  response: { type: 'string', maxLength: 1024, pattern: /^[\x00-\xFF]+$/ },
                  proxyHeader: { type: 'string', enum: ['NONE', 'PROXY_V1'] },
                }),
                httpHealthCheck,
                httpsHealthCheck: httpHealthCheck,
                http2HealthCheck: httpHealthCheck,
                grpcHealthCheck: withPortRules({
                  ...commonHealthCheck,
                  grpcServiceName: { type: 'string', maxLength: 1024 },
                }),
              },
              rules: [
                {
                  check: (c: Record<string, unknown>) =>
                    c.type !== undefined && c[CONFIG_FIELD[c.type as string]] !== undefined,
                  message: 'must hold type and exactly the matching <type>HealthCheck field',
                },
              ],
            },
            logConfig: { type: 'object', properties: { enabled: { type: 'boolean' } } },
          },
          rules: [
            {
              check: (d: { timeoutSec?: number; checkIntervalSec?: number }) =>
                (d.timeoutSec ?? 5) <= (d.checkIntervalSec ?? 5),
              message: 'timeoutSec must not be greater than checkIntervalSec (both default to 5)',
            },
          ],
        },
      },
    },
  },
};

export const gcpBackendPolicySchema: Schema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { type: 'string', enum: [GKE_API_VERSION] },
    kind: { type: 'string', enum: ['GCPBackendPolicy'] },
    metadata: objectMetaSchema,
    spec: {
      type: 'object',
      required: ['targetRef'],
      properties: {
        targetRef,
        default: {
          type: 'object',
          properties: {
            timeoutSec: int64(1, 2147483647),
            connectionDraining: { type: 'object', properties: { drainingTimeoutSec: int64(0, 3600) } },
            logging: {
              type: 'object',
              properties: {
                enabled: { type: 'boolean' },
                sampleRate: { type: 'integer', format: 'int32', minimum: 0, maximum: 1000000 },
              },
            },
            sessionAffinity: {
              type: 'object',
              properties: {
                type: {
                  type: 'string',
                  enum: [
                    'CLIENT_IP',
                    'CLIENT_IP_PORT_PROTO',
                    'CLIENT_IP_PROTO',
                    'GENERATED_COOKIE',
                    'HEADER_FIELD',
                    'HTTP_COOKIE',
                    'NONE',
                  ],
                },
                cookieTtlSec: int64(0, 1209600),
              },
            },
            maxRatePerEndpoint: int64(1, 1000000000),
            securityPolicy: { type: 'string' },
            backendPreference: { type: 'string', enum: ['DEFAULT', 'PREFERRED'] },
            iap: {
              type: 'object',
              properties: {
                enabled: { type: 'boolean' },
                clientID: { type: 'string' },
                oauth2ClientSecret: { type: 'object', properties: { name: { type: 'string' } } },
              },
            },
          },
        },
      },
    },
  },
};
