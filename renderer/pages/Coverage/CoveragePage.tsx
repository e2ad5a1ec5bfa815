import { useEffect } from 'react';
import type { Coverage } from '../../api/testing-tools';
import { Card } from '../../components/Card';
import { useStore } from '../../store';

type Transition = Coverage['transitions'][number];

/** One state machine as a table of its moves; an unreached move is highlighted. */
function Machine({ name, moves }: { name: string; moves: Transition[] }) {
  const reached = moves.filter((m) => m.count > 0).length;
  return (
    <Card
      title={<span className="mono">{name}</span>}
      subtitle={`${reached} of ${moves.length} transitions reached`}
      testId="coverage-machine"
    >
      <div className="table-wrap">
        <table className="table" data-machine={name}>
          <thead>
            <tr>
              <th>From</th>
              <th>To</th>
              <th>Via</th>
              <th>Count</th>
            </tr>
          </thead>
          <tbody>
            {moves.map((m) => (
              <tr
                key={`${m.from}>${m.to}`}
                data-testid="coverage-transition"
                data-from={m.from}
                data-to={m.to}
                data-reached={String(m.count > 0)}
                className={m.count === 0 ? 'coverage-unreached' : undefined}
              >
                <td className="mono">{m.from}</td>
                <td className="mono">→ {m.to}</td>
                <td className="small">{m.via}</td>
                <td>{m.count > 0 ? m.count : <span className="badge badge-tone-warning">unreached</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

/**
 * The coverage report: which of the spec's events and state transitions this workspace reached
 * since it was made or last reset.
 */
export function CoveragePage() {
  const coverage = useStore((s) => s.coverage);
  const load = useStore((s) => s.loadCoverage);
  // Read on opening; the live stream reads it again as the workspace changes (store/sync.ts).
  useEffect(() => {
    void load();
  }, [load]);
  if (!coverage) return <p className="muted">Loading…</p>;
  const machines = [...new Set(coverage.transitions.map((t) => t.machine))];
  return (
    <div className="stack">
      <Card
        title="Events"
        subtitle={`${coverage.events.filter((e) => e.count > 0).length} of ${coverage.events.length} event types fired`}
        testId="coverage-events"
      >
        <div className="table-wrap">
          <table className="table">
            <tbody>
              {coverage.events.map((e) => (
                <tr
                  key={e.type}
                  data-testid="coverage-event"
                  data-type={e.type}
                  data-reached={String(e.count > 0)}
                  className={e.count === 0 ? 'coverage-unreached' : undefined}
                >
                  <td className="mono">{e.type}</td>
                  <td>
                    {e.count > 0 ? e.count : <span className="badge badge-tone-warning">unreached</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      <div className="grid-split-even">
        {machines.map((name) => (
          <Machine key={name} name={name} moves={coverage.transitions.filter((t) => t.machine === name)} />
        ))}
      </div>
    </div>
  );
}
