import type { FaultEffect, FaultMark, FaultMatch } from '../../api/faults';

// Faults in words, shared by the Faults page (rules) and the Requests page (what a rule did).

export function describeFaultMatch(match: FaultMatch): string {
  const parts = [match.method ?? 'any method', match.path ?? 'any /v1 path'];
  if (match.env) parts.push(`(${match.env})`);
  return parts.join(' ');
}

export function describeFaultEffect(effect: FaultEffect): string {
  if (effect.status !== undefined)
    return effect.status === 429
      ? `HTTP 429, Retry-After ${effect.retry_after_s ?? 1} s`
      : `HTTP ${effect.status}`;
  if (effect.latency_ms)
    return effect.latency_ms.min === effect.latency_ms.max
      ? `latency ${effect.latency_ms.min} ms`
      : `latency ${effect.latency_ms.min}–${effect.latency_ms.max} ms`;
  if (effect.timeout) return 'timeout (no answer)';
  if (effect.lost_response) return 'lost response (committed, no answer)';
  return 'nothing';
}

/** What a fault did to one request, as the request log marks it. */
export function describeFaultMark(mark: FaultMark): string {
  switch (mark.effect) {
    case 'status':
      return `HTTP ${mark.status ?? '?'}`;
    case 'latency':
      return `+${mark.latency_ms ?? '?'} ms`;
    case 'timeout':
      return 'timeout';
    case 'lost_response':
      return 'lost response';
  }
}
