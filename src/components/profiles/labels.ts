/** Words and badge styles for profile values: mechanisms, bases, knob roles and drain kinds. */
import type { Basis, DrainKind, KnobRole, Mechanism, ReleaseFact, ReleaseFactTopic } from '../../facts/profiles.ts';

export type BadgeVariant = 'note' | 'tip' | 'caution' | 'danger' | 'success' | 'default';

/** How a terminating pod stops getting new requests, in a few words. */
export const MECHANISM_LABELS: Record<Mechanism, string> = {
  'epp-only': 'Endpoint Picker only',
  'endpoint-view': 'Endpoint Picker and the gateway\u2019s own endpoint view',
  'health-check': 'Health checks',
};

/** How a number is known, and the badge it gets. */
export const BASIS_LABELS: Record<Basis | 'given', { text: string; variant: BadgeVariant; meaning: string }> = {
  documented: { text: 'documented', variant: 'success', meaning: 'a public source states it' },
  observed: {
    text: 'observed',
    variant: 'note',
    meaning: 'someone measured it and published the value; the setup is not fully described',
  },
  estimate: {
    text: 'estimate',
    variant: 'caution',
    meaning: 'no source gives it; Hitless reasoned it out, so measure it',
  },
  example: { text: 'example', variant: 'danger', meaning: 'a placeholder to replace with your own values' },
  given: { text: 'given', variant: 'default', meaning: 'entered by you' },
};

/** What a gateway setting is about, as section headings. */
export const KNOB_ROLE_LABELS: Record<KnobRole, string> = {
  detection: 'Noticing a gone pod',
  backend: 'Requests to a leaving backend',
  'own-pods': 'The gateway\u2019s own pods',
};

/** How a model server treats SIGTERM, in a few words. */
export const DRAIN_KIND_LABELS: Record<DrainKind, string> = {
  flag: 'Drains for as long as a flag allows',
  unbounded: 'Drains until no request is left',
  fixed: 'Fixed drain time, no flag',
  none: 'Does not drain',
};

/** What a per-release model-server fact is about, as a table heading. */
export const RELEASE_FACT_LABELS: Record<ReleaseFactTopic, string> = {
  'drain-flag': 'Drain flag and default',
  'in-flight': 'In-flight requests on SIGTERM',
  'new-requests': 'New requests on SIGTERM',
  probes: 'Probe endpoints while draining',
  entrypoint: 'Entrypoint',
  'shutdown-log': 'Shutdown log lines',
};

/** The releases a fact holds for, in words: "from 0.18.0", "before 0.18.0", "from 24.04 before 25.05", plus its note. */
export function rangeText(fact: Pick<ReleaseFact, 'since' | 'until' | 'rangeNote'>): string {
  const bounds = [fact.since && `from ${fact.since}`, fact.until && `before ${fact.until}`].filter(Boolean).join(' ');
  const text = bounds || 'release not known';
  return fact.rangeNote ? `${text} (${fact.rangeNote})` : text;
}
