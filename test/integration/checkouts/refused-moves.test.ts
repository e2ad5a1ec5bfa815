import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import {
  type Checkout,
  call,
  control,
  createCheckout,
  events,
  expectError,
  getCheckout,
  type Json,
  ok,
  patchSettings,
  pay,
} from '../../helpers/api.js';
import { type Actor, createMerchant, inFuture, testSandbox } from '../../helpers/sandbox.js';

// Status moves the state tables (server/domain/state.ts) refuse, driven over HTTP: each answers 400
// with a body that is exactly `{error}` naming the status it was refused from, and leaves the
// resource as it was (same GET body, no new event, no money moved).

let sandbox: Sandbox;
let actor: Actor;

beforeEach(async () => {
  sandbox = await testSandbox();
  actor = await createMerchant(sandbox);
});

/** A merchant API call (test environment). */
const v1 = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Json) =>
  call(sandbox, { method, url, headers: actor.auth, ...(payload === undefined ? {} : { payload }) });

/** What a refusal must leave alone besides the resource: the merchant's events and ledger. */
async function surroundings() {
  const [recorded, ledger] = await Promise.all([
    events(sandbox, actor.merchantId),
    control(sandbox, 'GET', `/sandbox/merchants/${actor.merchantId}/ledger?limit=100`),
  ]);
  return { events: recorded.length, ledger: ok<Json[]>(ledger) };
}

/**
 * Runs `refuse`, expects a 400 `{error}` mentioning each of `mentions`, then checks that `read`
 * returns the same as before and that the merchant has no new event and no new ledger entry.
 */
async function expectRefused<T>(
  read: () => Promise<T>,
  refuse: () => Promise<LightMyRequestResponse>,
  ...mentions: (string | RegExp)[]
): Promise<string> {
  const before = await read();
  const around = await surroundings();
  const message = expectError(await refuse(), 400, ...mentions);
  expect(await read(), `unchanged after: ${message}`).toEqual(before);
  expect(await surroundings(), `no event, no money moved after: ${message}`).toEqual(around);
  return message;
}

describe('checkout', () => {
  /** The merchant's view and the control API's (payments and refunds included). */
  const read = (id: string) => async () => ({
    checkout: await getCheckout(sandbox, actor, id),
    inspection: ok<Json>(await control(sandbox, 'GET', `/sandbox/checkouts/${id}`)),
  });
  const cancel = (id: string) => () => v1('DELETE', `/v1/checkouts/${id}`);
  const complete = (id: string) => () => control(sandbox, 'POST', `/sandbox/checkouts/${id}/complete`);
  const expire = (id: string) => () => control(sandbox, 'POST', `/sandbox/checkouts/${id}/expire`);
  const refund = (id: string) => () => v1('POST', `/v1/checkouts/${id}/refund`, {});

  const active = () => createCheckout(sandbox, actor, { amount: 25_000_000, expires_at: inFuture(sandbox) });
  const paid = async () => {
    const checkout = await active();
    const after = ok<{ checkout: Checkout }>(await pay(sandbox, checkout.id)).checkout;
    expect(after.status).toBe('paid');
    return after;
  };
  const expired = async () => {
    const checkout = await active();
    expect(ok<Checkout>(await expire(checkout.id)()).status).toBe('expired');
    return checkout;
  };

  it('cancel a paid one (DELETE /v1/checkouts/{id})', async () => {
    const { id } = await paid();
    await expectRefused(read(id), cancel(id), 'Cannot cancel a checkout with status paid');
  });

  it('cancel a cancelled one', async () => {
    const { id } = await active();
    expect((await cancel(id)()).statusCode).toBe(204);
    await expectRefused(read(id), cancel(id), 'status cancelled');
  });

  it('complete an active one (POST /sandbox/checkouts/{id}/complete)', async () => {
    const { id } = await active();
    await expectRefused(read(id), complete(id), 'status: active');
  });

  it('complete a completed one', async () => {
    const { id } = await paid();
    expect(ok<Checkout>(await complete(id)()).status).toBe('completed');
    await expectRefused(read(id), complete(id), 'status: completed');
  });

  it('expire a paid one (POST /sandbox/checkouts/{id}/expire)', async () => {
    const { id } = await paid();
    await expectRefused(read(id), expire(id), 'status: paid');
  });

  it('expire an expired one', async () => {
    const { id } = await expired();
    await expectRefused(read(id), expire(id), 'status: expired');
  });

  it('pay an expired one (POST /sandbox/checkouts/{id}/payments)', async () => {
    const { id } = await expired();
    await expectRefused(read(id), () => pay(sandbox, id), 'status: expired');
    expect((await read(id)()).inspection).toMatchObject({ received_amount: 0, payments: [] });
  });

  it('refund an expired one (POST /v1/checkouts/{id}/refund)', async () => {
    const { id } = await expired();
    await expectRefused(read(id), refund(id), 'Cannot refund a checkout with status expired');
  });

  it('refund a cancelled one', async () => {
    const { id } = await active();
    expect((await cancel(id)()).statusCode).toBe(204);
    await expectRefused(read(id), refund(id), 'status cancelled');
  });
});

interface Invoice {
  id: string;
  status: string;
  checkout_id: string | null;
}

describe('invoice', () => {
  const read = (id: string) => async () => ok<Invoice>(await v1('GET', `/v1/invoices/${id}`));
  const activate = (id: string) => () => v1('POST', `/v1/invoices/${id}/activate`, {});
  const cancel = (id: string) => () => v1('DELETE', `/v1/invoices/${id}`);

  const draft = async () =>
    ok<Invoice>(
      await v1('POST', '/v1/invoices', { title: 'Invoice', customer_name: 'Ada', amount: 5_000_000 }),
    );
  const sent = async () => {
    const { invoice, checkout } = ok<{ invoice: Invoice; checkout: Checkout }>(
      await activate((await draft()).id)(),
    );
    expect(invoice.status).toBe('sent');
    return { invoice, checkout };
  };

  it('activate a sent one (POST /v1/invoices/{id}/activate)', async () => {
    const { invoice, checkout } = await sent();
    await expectRefused(
      read(invoice.id),
      activate(invoice.id),
      'Cannot activate an invoice with status sent',
    );
    // No second checkout: the invoice's own is still the only one, as it was.
    const checkouts = ok<Checkout[]>(await v1('GET', '/v1/checkouts'));
    expect(checkouts.map((c) => c.id)).toEqual([checkout.id]);
    expect((await getCheckout(sandbox, actor, checkout.id)).status).toBe('active');
  });

  it('cancel a paid one (DELETE /v1/invoices/{id})', async () => {
    const { invoice, checkout } = await sent();
    ok(await pay(sandbox, checkout.id));
    expect((await read(invoice.id)()).status).toBe('paid');
    await expectRefused(read(invoice.id), cancel(invoice.id), 'Cannot cancel an invoice with status paid');
    expect((await getCheckout(sandbox, actor, checkout.id)).status).toBe('paid');
  });

  it('activate a cancelled one', async () => {
    const { id } = await draft();
    expect((await cancel(id)()).statusCode).toBe(204);
    await expectRefused(read(id), activate(id), 'status cancelled');
  });
});

interface Card {
  id: string;
  status: string;
}
interface CardTransaction {
  id: string;
  status: string;
  amount: number;
}

const APPLY = {
  account_purpose: 'business expenses',
  occupation: 'engineer',
  annual_salary: '50000_100000',
  expected_monthly_volume: '1000_5000',
};

/** The default catalogue's product of a type. */
async function product(type: 'virtual' | 'physical'): Promise<string> {
  const catalogue = ok<{ id: string; type: string }[]>(
    await control(sandbox, 'GET', '/sandbox/card-catalogue'),
  );
  const found = catalogue.find((p) => p.type === type);
  if (!found) throw new Error(`no ${type} card product in the catalogue`);
  return found.id;
}

/** A KYC-approved cardholder, funded with `funds` USDC micro-units. */
async function cardholder(funds = 0): Promise<string> {
  const holder = ok<{ id: string }>(await v1('POST', '/v1/cardholders', { name: 'Jane Doe' }));
  ok(await control(sandbox, 'POST', `/sandbox/cardholders/${holder.id}/kyc`, { result: 'approved' }));
  if (funds > 0) {
    ok(
      await control(sandbox, 'POST', `/sandbox/merchants/${actor.merchantId}/credit`, {
        currency: 'USDC',
        amount: funds,
      }),
    );
    expect(
      (await v1('POST', `/v1/cardholders/${holder.id}/fund`, { amount: funds, currency: 'USDC' })).statusCode,
    ).toBe(204);
  }
  return holder.id;
}

/** A card of `type` for a new (funded) cardholder, its application approved automatically. */
async function issueCard(type: 'virtual' | 'physical', funds = 0): Promise<{ holderId: string; card: Card }> {
  const holderId = await cardholder(funds);
  const catalogue = await product(type);
  expect(
    ok<{ status: string }>(
      await v1('POST', `/v1/cardholders/${holderId}/cards/apply`, { catalogue, ...APPLY }),
    ).status,
  ).toBe('approved');
  const card = ok<Card>(await v1('POST', `/v1/cardholders/${holderId}/cards`, { catalogue, type }));
  return { holderId, card };
}

describe('card', () => {
  const read = (holderId: string, cardId: string) => async () =>
    ok<Card>(await v1('GET', `/v1/cardholders/${holderId}/cards/${cardId}`));
  const patch = (holderId: string, cardId: string, status: string) => () =>
    v1('PATCH', `/v1/cardholders/${holderId}/cards/${cardId}`, { status });
  const activate = (cardId: string) => () => control(sandbox, 'POST', `/sandbox/cards/${cardId}/activate`);
  const cancel = (cardId: string) => () => control(sandbox, 'POST', `/sandbox/cards/${cardId}/cancel`);

  it('PATCH a canceled card to active (or locked)', async () => {
    const { holderId, card } = await issueCard('virtual');
    expect(ok<Card>(await cancel(card.id)()).status).toBe('canceled');
    await expectRefused(
      read(holderId, card.id),
      patch(holderId, card.id, 'active'),
      'Cannot change a card from canceled to active',
    );
    await expectRefused(
      read(holderId, card.id),
      patch(holderId, card.id, 'locked'),
      'from canceled to locked',
    );
  });

  it('activate an active virtual card (POST /sandbox/cards/{id}/activate)', async () => {
    const { holderId, card } = await issueCard('virtual');
    expect(card.status).toBe('active');
    await expectRefused(read(holderId, card.id), activate(card.id), 'status: active');
  });

  it('activate a physical card twice', async () => {
    const { holderId, card } = await issueCard('physical');
    expect(card.status).toBe('notActivated');
    expect(ok<Card>(await activate(card.id)()).status).toBe('active');
    await expectRefused(read(holderId, card.id), activate(card.id), 'status: active');
  });

  it('PATCH a notActivated physical card to active (activation is the network’s, not the merchant’s)', async () => {
    const { holderId, card } = await issueCard('physical');
    await expectRefused(
      read(holderId, card.id),
      patch(holderId, card.id, 'active'),
      'Cannot change a card from notActivated to active',
    );
  });

  it('cancel twice (POST /sandbox/cards/{id}/cancel)', async () => {
    const { holderId, card } = await issueCard('virtual');
    expect(ok<Card>(await cancel(card.id)()).status).toBe('canceled');
    await expectRefused(read(holderId, card.id), cancel(card.id), 'already canceled');
  });

  it('activate a canceled card', async () => {
    const { holderId, card } = await issueCard('physical');
    expect(ok<Card>(await cancel(card.id)()).status).toBe('canceled');
    await expectRefused(read(holderId, card.id), activate(card.id), 'status: canceled');
  });
});

describe('card application', () => {
  interface Application {
    id: string;
    status: string;
  }
  const read = (holderId: string, id: string) => async () => {
    const detail = ok<{ applications: Application[] }>(
      await control(sandbox, 'GET', `/sandbox/cardholders/${holderId}`),
    );
    const application = detail.applications.find((a) => a.id === id);
    expect(application).toBeDefined();
    return application!;
  };
  const review = (id: string, status: 'approved' | 'rejected') => () =>
    control(sandbox, 'POST', `/sandbox/card-applications/${id}`, { status });

  /** A pending application (manual review). */
  const pending = async () => {
    await patchSettings(sandbox, { application_review: 'manual' });
    const holderId = await cardholder();
    const application = ok<Application>(
      await v1('POST', `/v1/cardholders/${holderId}/cards/apply`, {
        catalogue: await product('virtual'),
        ...APPLY,
      }),
    );
    expect(application.status).toBe('pending');
    return { holderId, application };
  };

  it('review an approved one again (POST /sandbox/card-applications/{id})', async () => {
    const { holderId, application } = await pending();
    expect(ok<Application>(await review(application.id, 'approved')()).status).toBe('approved');
    await expectRefused(
      read(holderId, application.id),
      review(application.id, 'rejected'),
      'status: approved',
    );
    await expectRefused(
      read(holderId, application.id),
      review(application.id, 'approved'),
      'status: approved',
    );
  });

  it('review a rejected one again', async () => {
    const { holderId, application } = await pending();
    expect(ok<Application>(await review(application.id, 'rejected')()).status).toBe('rejected');
    await expectRefused(
      read(holderId, application.id),
      review(application.id, 'approved'),
      'status: rejected',
    );
  });

  it('review one approved automatically', async () => {
    const holderId = await cardholder();
    const application = ok<Application>(
      await v1('POST', `/v1/cardholders/${holderId}/cards/apply`, {
        catalogue: await product('virtual'),
        ...APPLY,
      }),
    );
    expect(application.status).toBe('approved');
    await expectRefused(
      read(holderId, application.id),
      review(application.id, 'rejected'),
      'status: approved',
    );
  });
});

describe('card transaction', () => {
  const FUNDS = 50_000_000;
  const AMOUNT = 10_000_000;

  /** The transaction as the control API lists it, and the cardholder's balances (money must not move). */
  const read = (holderId: string, cardId: string, txId: string) => async () => {
    const list = ok<CardTransaction[]>(
      await control(sandbox, 'GET', `/sandbox/cards/${cardId}/transactions`),
    );
    const holder = ok<{ balances: Json[] }>(await v1('GET', `/v1/cardholders/${holderId}`));
    return { tx: list.find((t) => t.id === txId), count: list.length, balances: holder.balances };
  };
  const decide = (txId: string, action: 'settle' | 'decline' | 'reverse') => () =>
    control(sandbox, 'POST', `/sandbox/card-transactions/${txId}/${action}`);

  /** An authorization (requested) on a funded virtual card. */
  const authorized = async () => {
    const { holderId, card } = await issueCard('virtual', FUNDS);
    const tx = ok<CardTransaction>(
      await control(sandbox, 'POST', `/sandbox/cards/${card.id}/authorizations`, { amount: AMOUNT }),
    );
    expect(tx.status).toBe('requested');
    return { holderId, card, tx };
  };

  it('settle then reverse the same authorization (/sandbox/card-transactions/{id}/settle|reverse)', async () => {
    const { holderId, card, tx } = await authorized();
    expect(ok<CardTransaction>(await decide(tx.id, 'settle')()).status).toBe('completed');
    const message = await expectRefused(
      read(holderId, card.id, tx.id),
      decide(tx.id, 'reverse'),
      'status: completed',
    );
    expect(message).toContain('reversed');
    expect((await read(holderId, card.id, tx.id)()).tx?.status).toBe('completed');
  });

  it('settle twice', async () => {
    const { holderId, card, tx } = await authorized();
    ok(await decide(tx.id, 'settle')());
    await expectRefused(read(holderId, card.id, tx.id), decide(tx.id, 'settle'), 'status: completed');
  });

  it('reverse then settle', async () => {
    const { holderId, card, tx } = await authorized();
    expect(ok<CardTransaction>(await decide(tx.id, 'reverse')()).status).toBe('reversed');
    await expectRefused(read(holderId, card.id, tx.id), decide(tx.id, 'settle'), 'status: reversed');
  });

  it('decline one declined by the card rules', async () => {
    const { holderId, card } = await issueCard('virtual', FUNDS);
    const tx = ok<CardTransaction>(
      await control(sandbox, 'POST', `/sandbox/cards/${card.id}/authorizations`, { amount: FUNDS * 2 }),
    );
    expect(tx.status).toBe('declined');
    await expectRefused(read(holderId, card.id, tx.id), decide(tx.id, 'decline'), 'status: declined');
    await expectRefused(read(holderId, card.id, tx.id), decide(tx.id, 'settle'), 'status: declined');
  });
});
