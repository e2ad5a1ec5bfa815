import type { Statements } from './statements.js';

export interface EventCount {
  type: string;
  count: number;
}

export interface TransitionCount {
  machine: string;
  from_status: string;
  to_status: string;
  count: number;
}

/** The coverage counts; triggers write them beside the writes they count (migration 023). */
export function createCoverageRepo(sql: Statements) {
  const events = sql.read<[], EventCount>('SELECT type, count FROM coverage_events ORDER BY type');
  const transitions = sql.read<[], TransitionCount>(
    'SELECT machine, from_status, to_status, count FROM coverage_transitions ORDER BY machine, from_status, to_status',
  );
  return {
    events: (): EventCount[] => events.all(),
    transitions: (): TransitionCount[] => transitions.all(),
  };
}
export type CoverageRepo = ReturnType<typeof createCoverageRepo>;
