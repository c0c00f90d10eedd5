/**
 * The facts' types, for the rest of the code to import from one place. Each is `z.output` of the schema that
 * validates its data file (src/facts/schemas/), so a field is added in one place: its schema line.
 */
import type { ControllerFacts } from './schemas/controller.ts';
import type { OtherServer } from './schemas/other-server.ts';
import type { GatewayProfile } from './schemas/gateway.ts';
import type { ModelServerProfile } from './schemas/model-server.ts';
import type { ChartFacts, LwsFacts } from './schemas/outputs.ts';
import type { RequestDefaults } from './schemas/request-defaults.ts';
import type { ValueRanges } from './schemas/value-ranges.ts';

export type { Basis, Source } from './schemas/common.ts';
export type { ControllerFacts, ServingKind } from './schemas/controller.ts';
export type { GatewayKnob, GatewayProfile, KnobRole, Mechanism, SourceGap } from './schemas/gateway.ts';
export type { ExtraManifest, TemplateValue } from './schemas/gateway-manifest.ts';
export type { GatewaySecondsSetting } from './schemas/gateway-settings.ts';
export type { EntryPoint, ModelServerProfile, ReleaseFact, ReleaseFactTopic } from './schemas/model-server.ts';
export type { DrainKind } from './schemas/model-server-drain.ts';
export type { RequestDefaults } from './schemas/request-defaults.ts';
export type { ValueRange, ValueRanges, ValueRelation } from './schemas/value-ranges.ts';
export type { ChartFacts, LwsFacts } from './schemas/outputs.ts';

/** All profiles, sorted for display, and the sourced request defaults. */
export interface Profiles {
  gateways: GatewayProfile[];
  modelServers: ModelServerProfile[];
  /** content/request-defaults.yaml. */
  requestDefaults: RequestDefaults;
  /** content/kubernetes/value-ranges.yaml. */
  valueRanges: ValueRanges;
  /** content/controllers/: the serving controllers whose resources make pods. */
  controllers: ControllerFacts[];
  /** content/other-servers/: model servers recognised by image that have no drain profile. */
  otherServers: OtherServer[];
}

/** Both output forms' facts (content/outputs/). */
export interface OutputFacts {
  chart: ChartFacts;
  lws: LwsFacts;
}
