import { describe, expect, it } from 'vitest';
import {
  ApplicationStatus,
  CardStatus,
  CardTransactionStatus,
  KycStatus,
} from '../../server/contract/cards.js';
import { CheckoutStatus } from '../../server/contract/checkouts.js';
import { PayoutStatus } from '../../server/contract/funds.js';
import { InvoiceStatus } from '../../server/contract/invoices.js';
import { KybStatus } from '../../server/contract/merchants.js';
import { ResellerConnectionStatus } from '../../server/contract/resellers.js';
import { DeliveryStatus } from '../../server/contract/webhooks.js';
import { coverage } from '../../server/db/migrations/023-coverage.js';
import {
  applicationStates,
  COVERED_MACHINES,
  cardStates,
  cardTransactionStates,
  checkoutStates,
  deliveryStates,
  invoiceStates,
  kybStates,
  kycStates,
  NEW,
  payoutStates,
  resellerConnectionStates,
  StateMachine,
  TransitionError,
} from '../../server/domain/state.js';
import { AppError, BusinessRuleError } from '../../server/errors.js';

// Every resource's state table (server/domain/state.ts), checked exhaustively: each (from, to) pair
// over the table's states is either allowed (`can`, `move`) or refused (`assert` and `move` throw one
// TransitionError, a 400). The tables must be closed, their terminal states must be the spec's, and
// their state sets must be exactly the contract's enums, so a status added to the contract without a
// table row fails here.

interface Table {
  name: string;
  machine: StateMachine<string>;
  /** The contract schema of the status (a TypeBox `StringEnum`, i.e. `{ type: 'string', enum }`). */
  contract: unknown;
  /** States with no way out, per the spec. */
  terminal: string[];
}

const TABLES: Table[] = [
  {
    name: 'checkout',
    machine: checkoutStates,
    contract: CheckoutStatus,
    terminal: ['refunded', 'expired', 'cancelled'],
  },
  { name: 'invoice', machine: invoiceStates, contract: InvoiceStatus, terminal: ['paid', 'cancelled'] },
  { name: 'card', machine: cardStates, contract: CardStatus, terminal: ['canceled'] },
  {
    name: 'card application',
    machine: applicationStates,
    contract: ApplicationStatus,
    terminal: ['approved', 'rejected'],
  },
  // KYC: a decided cardholder may be reviewed again or start over; nothing is final.
  { name: 'identity verification', machine: kycStates, contract: KycStatus, terminal: [] },
  {
    name: 'card transaction',
    machine: cardTransactionStates,
    contract: CardTransactionStatus,
    terminal: ['completed', 'declined', 'reversed'],
  },
  // Webhook delivery: a manual retry sends again whatever the status.
  { name: 'webhook delivery', machine: deliveryStates, contract: DeliveryStatus, terminal: [] },
  // KYB: the sandbox plays the reviewer and may set any status.
  { name: 'KYB review', machine: kybStates, contract: KybStatus, terminal: [] },
  // Reseller connection: a revoked one is re-created (POST for the same merchant); nothing is final.
  {
    name: 'reseller connection',
    machine: resellerConnectionStates,
    contract: ResellerConnectionStatus,
    terminal: [],
  },
  // Payout: the rail answers at once; a payout starts completed or failed.
  { name: 'payout', machine: payoutStates, contract: PayoutStatus, terminal: ['completed', 'failed'] },
];

/** The `enum` array of a contract status schema. */
function contractStates(schema: unknown): string[] {
  const values = (schema as { enum?: unknown }).enum;
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'string'))
    throw new Error(`not a string enum schema: ${JSON.stringify(schema)}`);
  return values as string[];
}

interface Pair {
  from: string;
  to: string;
}

/** Every (from, to) pair over the machine's states, self-moves included. */
function pairs(machine: StateMachine<string>): { allowed: Pair[]; refused: Pair[] } {
  const allowed: Pair[] = [];
  const refused: Pair[] = [];
  for (const from of machine.states) {
    for (const to of machine.states) {
      (machine.moves[from]!.includes(to) ? allowed : refused).push({ from, to });
    }
  }
  return { allowed, refused };
}

/** A row as the services hold it: a status and other fields that a move must keep. */
const rowIn = (status: string) => ({
  id: 'row-1',
  status,
  amount: 42,
  nested: { keep: true },
});

/** What `fn` threw (fails the test when it did not throw). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('TransitionError', () => {
  it('is a BusinessRuleError (an AppError answering 400) carrying resource, from and to', () => {
    const error = new TransitionError('card', 'canceled', 'active');
    expect(error).toBeInstanceOf(BusinessRuleError);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toBeInstanceOf(Error);
    expect(error.statusCode).toBe(400);
    expect(error.name).toBe('TransitionError');
    expect(error).toMatchObject({ resource: 'card', from: 'canceled', to: 'active' });
    expect(error.message).toBe('Cannot move a card from canceled to active');
  });

  it('keeps a custom message as it is', () => {
    const error = new TransitionError(
      'invoice',
      'paid',
      'cancelled',
      'Cannot cancel an invoice with status paid',
    );
    expect(error.message).toBe('Cannot cancel an invoice with status paid');
    expect(error).toMatchObject({ resource: 'invoice', from: 'paid', to: 'cancelled', statusCode: 400 });
  });
});

describe('the state tables as a whole', () => {
  it('covers every machine exported by server/domain/state.ts', async () => {
    const exported = Object.values(await import('../../server/domain/state.js')).filter(
      (value) => value instanceof StateMachine,
    );
    expect(new Set(exported)).toEqual(new Set(TABLES.map((t) => t.machine)));
  });

  it('lists for the coverage report every machine but KYB (which the spec does not have), each counted by storage', () => {
    expect(new Set(COVERED_MACHINES.map((m) => m.states))).toEqual(
      new Set(TABLES.map((t) => t.machine).filter((m) => m !== kybStates)),
    );
    for (const { name, states, via } of COVERED_MACHINES) {
      // storage counts the machine under its name (the migration's triggers)
      expect(coverage.sql).toContain(`'${name}'`);
      expect(states.initial.length, name).toBeGreaterThan(0);
      for (const to of states.initial) {
        expect(states.states).toContain(to);
        expect(via(NEW, to), `${name}: (new) → ${to}`).not.toBe('');
      }
      for (const from of states.states)
        for (const to of states.moves[from] ?? [])
          expect(via(from, to), `${name}: ${from} → ${to}`).not.toBe('');
    }
  });

  it('refuses a first status a machine does not start in', () => {
    expect(() => payoutStates.assertInitial('completed')).not.toThrow();
    expect(() => checkoutStates.assertInitial('paid')).toThrow(TransitionError);
  });

  it('names each resource once', () => {
    const names = TABLES.map((t) => t.machine.resource);
    expect(names).toEqual(TABLES.map((t) => t.name));
    expect(new Set(names).size).toBe(names.length);
  });
});

describe.each(TABLES)('$name states', ({ name, machine, contract, terminal }) => {
  const { allowed, refused } = pairs(machine);

  it('are exactly the contract enum (a contract status without a table row fails)', () => {
    expect([...machine.states].sort()).toEqual([...contractStates(contract)].sort());
  });

  it('form a closed table: every target is a state, listed once', () => {
    for (const from of machine.states) {
      const targets = machine.moves[from]!;
      for (const to of targets) expect(machine.states, `${from} → ${to}`).toContain(to);
      expect(new Set(targets).size, `duplicate target in ${from}`).toBe(targets.length);
    }
  });

  it(`have the spec's terminal states: ${terminal.join(', ') || 'none'}`, () => {
    const noWayOut = machine.states.filter((s) => machine.moves[s]!.length === 0);
    expect(noWayOut.sort()).toEqual([...terminal].sort());
  });

  it('refuse states the table does not know, both ways', () => {
    expect(machine.can('no_such_state', machine.states[0]!)).toBe(false);
    expect(machine.can(machine.states[0]!, 'no_such_state')).toBe(false);
    expect(thrown(() => machine.assert('no_such_state', machine.states[0]!))).toBeInstanceOf(TransitionError);
  });

  it.each(allowed)('allow $from → $to: can, assert, move', ({ from, to }) => {
    expect(machine.can(from, to)).toBe(true);
    expect(() => machine.assert(from, to)).not.toThrow();
    const row = rowIn(from);
    const moved = machine.move(row, to);
    expect(moved).toEqual({ ...rowIn(from), status: to });
    expect(moved).not.toBe(row);
    expect(moved.nested).toBe(row.nested);
    expect(row.status, 'the input row is left as it was').toBe(from);
  });

  it.each(refused)('refuse $from → $to with a TransitionError (400)', ({ from, to }) => {
    expect(machine.can(from, to)).toBe(false);

    const error = thrown(() => machine.assert(from, to));
    expect(error).toBeInstanceOf(TransitionError);
    expect(error).toBeInstanceOf(BusinessRuleError);
    expect(error).toMatchObject({ resource: name, from, to, statusCode: 400 });
    const message = (error as TransitionError).message;
    expect(message).toContain(from);
    expect(message).toContain(to);

    const custom = `Refused: ${name} ${from} → ${to}`;
    expect(thrown(() => machine.assert(from, to, custom))).toMatchObject({
      message: custom,
      resource: name,
      from,
      to,
      statusCode: 400,
    });

    const row = rowIn(from);
    expect(thrown(() => machine.move(row, to, custom))).toMatchObject({ message: custom, from, to });
    expect(thrown(() => machine.move(row, to))).toBeInstanceOf(TransitionError);
    expect(row).toEqual(rowIn(from));
  });
});
