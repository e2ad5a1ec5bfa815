import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { EVENT_DATA, type EventData } from '../../server/contract/events.js';
import { openDatabase } from '../../server/db/connection.js';
import { createEventsRepo } from '../../server/db/events.js';
import { Statements, UNWATCHED } from '../../server/db/statements.js';
import { UnitOfWork } from '../../server/db/unit-of-work.js';
import { EventRecorder, type RecordedEvent } from '../../server/domain/events/recorder.js';
import { createIds } from '../../server/ids.js';

/**
 * `EventRecorder.record` takes the data of its event type's schema in the contract (EVENT_DATA):
 * the typecheck (`npm run typecheck`, which includes this file) holds every caller to it. Each
 * `@ts-expect-error` below fails the typecheck if its line ever compiles.
 */
function recorder() {
  const db = openDatabase(':memory:');
  const unit = new UnitOfWork(db);
  const clock = { now: () => 0, nowIso: () => '2026-11-26T00:00:00.000Z' };
  const events = new EventRecorder(
    createEventsRepo(new Statements(db, UNWATCHED)),
    clock,
    createIds('payloads'),
    unit,
  );
  return { db, unit, events };
}

const M = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const deposit: EventData<'deposit.received'> = {
  merchant_id: M,
  amount: 50_000_000,
  currency: 'USDT',
  txid: '0x4e3a3754410177e6937ef1f84bba68ea139e8d1a2258c5f85db9f1cd715a1bdd',
};

describe('typed event payloads', () => {
  it('records the data of its event type, stores it as JSON, publishes it after the commit', () => {
    const { db, unit, events } = recorder();
    const published: RecordedEvent[] = [];
    events.on((event) => published.push(event));
    const event = unit.atomically(() => {
      const recorded = events.record('test', M, 'deposit.received', deposit);
      expect(published).toEqual([]);
      return recorded;
    });
    expect(published).toEqual([event]);
    expect(Value.Check(EVENT_DATA['deposit.received'], event.data)).toBe(true);
    const stored = db.prepare<[string], string>('SELECT data FROM events WHERE id = ?').pluck().get(event.id);
    expect(JSON.parse(stored!)).toEqual(deposit);
    // No `id` in a deposit's data: the event names no resource.
    expect(event.resource_id).toBeNull();
  });

  it('refuses, when compiling, data that does not fit its event type — as the schema does', () => {
    const { unit, events } = recorder();
    // Rolled back: the run-time half only shows that the schema refuses the same data.
    const wrong: RecordedEvent[] = [];
    expect(() =>
      unit.atomically(() => {
        wrong.push(
          // @ts-expect-error amount is an integer of minor units, not a string
          events.record('test', M, 'deposit.received', { ...deposit, amount: '50000000' }),
          // @ts-expect-error txid is required
          events.record('test', M, 'deposit.received', { merchant_id: M, amount: 1, currency: 'USDT' }),
          // @ts-expect-error a deposit's data is not a paid checkout's
          events.record('test', M, 'checkout.paid', deposit),
        );
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(wrong).toHaveLength(3);
    for (const event of wrong)
      expect(Value.Check(EVENT_DATA[event.type], event.data), event.type).toBe(false);

    // A field the contract does not name: the schema would let it through (it allows extra
    // properties), the typecheck does not.
    unit.atomically(() => {
      // @ts-expect-error deposit.received has no fee field
      events.record('test', M, 'deposit.received', { ...deposit, fee: 1 });
    });
    expect(Object.keys(EVENT_DATA['deposit.received'].properties)).not.toContain('fee');
  });
});
