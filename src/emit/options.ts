/**
 * How every manifest document is built and written. kubectl and the API server read manifests as YAML 1.1
 * (sigs.k8s.io/yaml), where plain `yes`, `on`, `n` or `1:20` are booleans or numbers, while yq, ruamel and
 * the yaml package read YAML 1.2, where `0o17` is a number. `compat: 'yaml-1.1'` makes the writer quote any
 * string that either version would read as something else, so both see the same values.
 */
import type { DocumentOptions, SchemaOptions, ToStringOptions } from 'yaml';

/** Options for `new Document(value, DOCUMENT_OPTIONS)`. */
export const DOCUMENT_OPTIONS: DocumentOptions & SchemaOptions = { compat: 'yaml-1.1' };

/** Options for `doc.toString(TO_STRING)`: no folding, so long comments and values stay on one line. */
export const TO_STRING: ToStringOptions = { lineWidth: 0, minContentWidth: 0 };
