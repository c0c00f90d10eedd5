/**
 * Why requests were refused, in words: the error code a refused request's detail holds (ECONNREFUSED, ENOTFOUND,
 * a certificate's code) or its HTTP status, grouped and counted for the text summary, which would otherwise say
 * only "refused" (the code was only in the JSON).
 */
/** Codes Node gives a TLS certificate it does not trust (and the ERR_TLS_* family). */
const CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS_/;

/** A refused request's reason in a few words, from its detail. */
function refusalReason(detail: string | null): string {
  if (detail === null) return 'no reason recorded';
  // Verify sends each request once, to the URL given: a redirect (a loop of them too) is refused, not followed.
  if (/^HTTP 3\d\d$/.test(detail)) return `${detail}: a redirect, not followed (give --url the endpoint itself)`;
  if (/^HTTP \d{3}$/.test(detail)) return detail;
  if (detail === 'HPE_HEADER_OVERFLOW') return 'response headers too large to read (HPE_HEADER_OVERFLOW)';
  if (CERTIFICATE.test(detail)) return `certificate not accepted (${detail})`;
  if (detail === 'EPROTO' || detail.startsWith('ERR_SSL')) return `TLS handshake failed (${detail})`;
  if (detail === 'ECONNREFUSED') return 'connection refused (ECONNREFUSED)';
  if (detail === 'ENOTFOUND' || detail === 'EAI_AGAIN') return `DNS: the host name was not found (${detail})`;
  if (detail === 'ECONNRESET') return 'connection reset (ECONNRESET)';
  if (detail === 'ETIMEDOUT' || detail === 'EHOSTUNREACH' || detail === 'ENETUNREACH')
    return `host not reachable (${detail})`;
  return detail;
}

/** Most reasons listed; the rest are counted as "other". */
const MAX_REASONS = 4;

/** "3 connection refused (ECONNREFUSED), 1 HTTP 503": the refused requests by reason, most first; null for none. */
export function refusalSummary(rows: readonly { outcome: string; detail: string | null }[]): string | null {
  const counts = new Map<string, number>();
  for (const r of rows) {
    if (r.outcome !== 'refused') continue;
    const reason = refusalReason(r.detail);
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  if (counts.size === 0) return null;
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const shown = sorted.slice(0, MAX_REASONS).map(([reason, n]) => `${n} ${reason}`);
  const other = sorted.slice(MAX_REASONS).reduce((sum, [, n]) => sum + n, 0);
  return other > 0 ? `${shown.join(', ')}, ${other} other` : shown.join(', ');
}
