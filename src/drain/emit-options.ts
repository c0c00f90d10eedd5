/**
 * How every manifest document is built and written. kubectl and the API server read manifests as YAML 1.1
 * (sigs.k8s.io/yaml), where plain `yes`, `on`, `n` or `1:20` are booleans or numbers; building the documents
 * with the YAML 1.1 schema makes the writer quote such strings, while YAML 1.2 readers see the same values.
 */
import type { DocumentOptions, ToStringOptions } from 'yaml';

/** Options for `new Document(value, DOCUMENT_OPTIONS)`. */
export const DOCUMENT_OPTIONS: DocumentOptions = { version: '1.1' };

/** Options for `doc.toString(TO_STRING)`: no folding, so long comments and values stay on one line. */
export const TO_STRING: ToStringOptions = { lineWidth: 0, minContentWidth: 0 };
