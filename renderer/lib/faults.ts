import type {
  FaultEffect,
  FaultMark,
  FaultMatch,
  FaultRule,
  FaultRuleInput,
} from '../../server/contract/faults.js';

// API faults for the dashboard: in words (the Faults page's rules, the Requests page's marks) and
// the rules in force as input again. A leaf, so the store and the pages both import it.

/**
 * The rules in force as input again. The API sets the whole set at once, so adding or removing one
 * sends the others back: each keeps its id, match, rate and effect, with what it has left as its count;
 * a spent one (nothing left) is dropped, since sending it again would start it over.
 */
export const rulesAsInput = (rules: readonly FaultRule[]): FaultRuleInput[] =>
  rules
    .filter((rule) => rule.remaining !== 0)
    .map((rule) => ({
      id: rule.id,
      match: rule.match,
      rate: rule.rate,
      ...(rule.remaining === null ? {} : { count: rule.remaining }),
      effect: rule.effect,
    }));

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
  const words: Record<FaultMark['effect'], string> = {
    status: `HTTP ${mark.status ?? '?'}`,
    latency: `+${mark.latency_ms ?? '?'} ms`,
    timeout: 'timeout',
    lost_response: 'lost response',
  };
  return words[mark.effect];
}
