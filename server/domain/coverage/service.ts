import type { Coverage, CoverageTransition } from '../../contract/coverage.js';
import { EVENT_TYPES, type EventType } from '../../contract/events.js';
import type { CoverageRepo } from '../../db/coverage.js';
import { COVERED_MACHINES, NEW } from '../state.js';

/** A move storage counted that no state table lists: the report shows it, a test refuses it. */
export const UNLISTED = 'not in the state table';

/**
 * The coverage report: every event type of the spec and every transition of its state machines
 * (COVERED_MACHINES, server/domain/state.ts), each with how often this workspace reached it since
 * it was made or last reset (storage counts them; migration 023).
 */
export class CoverageService {
  constructor(private readonly deps: { repo: Pick<CoverageRepo, 'events' | 'transitions'> }) {}

  report(): Coverage {
    const eventCounts = new Map(this.deps.repo.events().map((row) => [row.type, row.count]));
    const counted = new Map(
      this.deps.repo
        .transitions()
        .map((row) => [`${row.machine}|${row.from_status}|${row.to_status}`, row.count]),
    );
    const transitions: CoverageTransition[] = [];
    for (const { name, states, via } of COVERED_MACHINES) {
      const pairs: [string, string][] = [
        ...states.initial.map((to): [string, string] => [NEW, to]),
        ...states.states.flatMap(
          (from) => states.moves[from]?.map((to): [string, string] => [from, to]) ?? [],
        ),
      ];
      for (const [from, to] of pairs) {
        const key = `${name}|${from}|${to}`;
        transitions.push({ machine: name, from, to, via: via(from, to), count: counted.get(key) ?? 0 });
        counted.delete(key);
      }
    }
    for (const [key, count] of counted) {
      const [machine = '', from = '', to = ''] = key.split('|');
      transitions.push({ machine, from, to, via: UNLISTED, count });
    }
    return {
      events: EVENT_TYPES.map((type: EventType) => ({ type, count: eventCounts.get(type) ?? 0 })),
      transitions,
    };
  }
}
