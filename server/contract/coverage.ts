import { type Static, Type } from 'typebox';
import { EventTypeName } from './events.js';

/**
 * GET /sandbox/coverage: what a workspace has reached since it was made or last reset. Every
 * event type of the spec and every transition of its state machines is listed; one never reached
 * has count 0. `from` is `(new)` for a row's first status.
 */
export const CoverageEvent = Type.Object({ type: EventTypeName, count: Type.Integer({ minimum: 0 }) });
export type CoverageEvent = Static<typeof CoverageEvent>;

export const CoverageTransition = Type.Object({
  machine: Type.String({ description: 'checkout, invoice, card, cardholder_kyc, card_application, …' }),
  from: Type.String(),
  to: Type.String(),
  via: Type.String({ description: 'what makes the move, in the spec’s words where it has them' }),
  count: Type.Integer({ minimum: 0 }),
});
export type CoverageTransition = Static<typeof CoverageTransition>;

export const Coverage = Type.Object({
  events: Type.Array(CoverageEvent),
  transitions: Type.Array(CoverageTransition),
});
export type Coverage = Static<typeof Coverage>;

/** Several coverage reports added up (a scenario run's workspaces, a test run's). */
export function addCoverage(reports: readonly Coverage[]): Coverage {
  const [first, ...rest] = reports;
  if (!first) return { events: [], transitions: [] };
  const key = (t: CoverageTransition) => `${t.machine}|${t.from}|${t.to}`;
  const events = new Map(first.events.map((e) => [e.type, { ...e }]));
  const transitions = new Map(first.transitions.map((t) => [key(t), { ...t }]));
  for (const report of rest) {
    for (const e of report.events) {
      const seen = events.get(e.type);
      if (seen) seen.count += e.count;
      else events.set(e.type, { ...e });
    }
    for (const t of report.transitions) {
      const seen = transitions.get(key(t));
      if (seen) seen.count += t.count;
      else transitions.set(key(t), { ...t });
    }
  }
  return { events: [...events.values()], transitions: [...transitions.values()] };
}
