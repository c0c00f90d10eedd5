/**
 * The `podSidecar` block of a gateway data file: for a gateway whose data plane can run in the model-server pod
 * (an Istio sidecar), what keeps that proxy serving through the pod's drain, and the annotations that ask for it.
 */
import { at, readObject, readString, type DataCursor } from './check-data.ts';
import { readSourceIds } from './read-profile-common.ts';

/** How a proxy injected into the model-server pod is kept alive through the drain. */
export interface PodSidecarFact {
  /** What happens to the injected proxy on pod deletion, and why it matters. */
  summary: string;
  /** The annotation that asks for a native sidecar (stopped only after the main containers exit), value "true". */
  nativeAnnotation: string;
  /** The first Kubernetes minor version (1.29) whose nodes run native sidecars by default. */
  nativeFromKubernetes: string;
  /** The proxy-config annotation whose terminationDrainDuration the manifest sets when native sidecars are not available. */
  drainAnnotation: string;
  sources: string[];
}

/** Validate a gateway's `podSidecar` block. */
export function readPodSidecar(value: unknown, cursor: DataCursor): PodSidecarFact {
  const o = readObject(value, cursor, [
    'summary',
    'nativeAnnotation',
    'nativeFromKubernetes',
    'drainAnnotation',
    'sources',
  ]);
  return {
    summary: readString(o.summary, at(cursor, 'summary')),
    nativeAnnotation: readString(o.nativeAnnotation, at(cursor, 'nativeAnnotation'), /^[a-z0-9.-]+\/[A-Za-z0-9.-]+$/),
    nativeFromKubernetes: readString(o.nativeFromKubernetes, at(cursor, 'nativeFromKubernetes'), /^1\.\d+$/),
    drainAnnotation: readString(o.drainAnnotation, at(cursor, 'drainAnnotation'), /^[a-z0-9.-]+\/[A-Za-z0-9.-]+$/),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
  };
}
