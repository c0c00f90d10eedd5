/** The Hitless drain core: inputs → plan → manifest. Pure: no DOM, no framework, no file access. */
export { FIELDS, GROUPS, fieldFor, type FieldSpec, type FieldGroup } from './fields.ts';
export { describeRange, parseValue } from './parse-value.ts';
export {
  changedInputs,
  defaultsFor,
  gatewayById,
  modelServerById,
  resolveInputs,
  DEFAULT_GATEWAY,
  DEFAULT_MODEL_SERVER,
  type DrainInputs,
  type FieldError,
  type Resolved,
} from './resolve.ts';
export { plan, MODEL_VERSION, type Plan, type DerivationStep } from './plan.ts';
export type { Warning, WarningCode } from './warnings.ts';
export { emitManifest, manifestDocuments, GENERATOR_VERSION } from './emit.ts';
export { ceilSeconds } from './seconds.ts';
export type { Profiles, GatewayProfile, ModelServerProfile } from './profiles.ts';
export { profilesFromFiles, type DataFile } from './profile-files.ts';
export { emitOutput } from './emit-output.ts';
export { OutputError, type EmittedOutput, type OutputFile } from './emit-files.ts';
export { outputFactsFromFiles, type OutputFacts } from './read-output-facts.ts';
export { OUTPUT_FORMS, type OutputForm } from './fields.ts';
