import { type Static, Type } from 'typebox';
import type { CheckoutInspection } from '../../contract/checkouts.js';
import { type Env, EnvName, Nullable, StringEnum, Timestamp } from '../../contract/common.js';
import type { SandboxEvent } from '../../contract/sandbox-state.js';
import type { Delivery } from '../../contract/webhooks.js';
import type { SandboxClient } from '../client.js';
import { type Args, described, ID_ARGS, idArg, type Tool, ToolRefusal } from './tool.js';

// `explain`: one object's story in order, from the sandbox's own records: the events about it, the
// webhook deliveries of those events attempt by attempt, and for a checkout the on-chain transfers
// and refunds with what each did to it.

const ExplainInput = Type.Object({
  object_id: Type.String({
    minLength: 1,
    maxLength: 200,
    description:
      'the id of a checkout, card transaction, cardholder, card, deposit, payout, invoice or event',
  }),
  merchant_id: Type.Optional(
    idArg(
      'merchant_id',
      `only this merchant's records (default: every merchant); ${ID_ARGS.merchant_id.description}`,
    ),
  ),
  env: Type.Optional(described(EnvName, 'only this environment (default: test, then production)')),
});

const StepKind = StringEnum(['transfer', 'refund', 'event', 'webhook']);

export const ExplainAnswer = Type.Object({
  id: Type.String({ description: 'the object explained' }),
  merchant_id: Type.String({ description: 'its merchant' }),
  env: EnvName,
  status: Nullable(Type.String({ description: 'its status after the last event' })),
  steps: Type.Array(
    Type.Object({
      at: Timestamp,
      kind: StepKind,
      what: Type.String({ description: 'what happened, in words' }),
    }),
    { description: 'in time order' },
  ),
});

interface Step {
  at: string;
  /** at the same instant: transfers, then events, then the attempts they caused */
  order: number;
  kind: Static<typeof StepKind>;
  line: string;
}

const statusOf = (event: SandboxEvent): string | undefined =>
  typeof event.data.status === 'string' ? event.data.status : undefined;

async function eventsAbout(
  client: SandboxClient,
  merchant: string,
  env: Env,
  id: string,
): Promise<SandboxEvent[]> {
  const events = await client.call('sandboxListMerchantEvents', {
    params: { id: merchant },
    query: { q: id, limit: 1000, env },
  });
  // q matches part of a resource id: keep the object's own events (or the one event named).
  return events.filter((e) => e.resource_id === id || e.id === id).reverse();
}

/** What each transfer and refund did to the checkout, in the order they came. */
function checkoutSteps(inspection: CheckoutInspection): Step[] {
  const { checkout } = inspection;
  const steps: Step[] = [];
  let received = 0;
  const due = checkout.amount;
  const payments = [...inspection.payments].sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
  for (const p of payments) {
    const where = `${p.amount} ${p.token ?? checkout.currency} (minor units)${p.chain ? ` on ${p.chain}` : ''}${p.txid ? `, tx ${p.txid}` : ''}`;
    let effect: string;
    if (p.outcome === 'late')
      effect =
        'arrived after the checkout stopped accepting payments: recorded as late, not credited, no event';
    else if (p.outcome === 'unsupported_chain')
      effect = 'sent on a chain the checkout does not offer: never detected, not credited, no event';
    else {
      received += p.amount;
      effect =
        due === null
          ? `received: ${received} credited so far (open amount)`
          : received < due
            ? `received: ${received} of ${due} credited, ${due - received} still due`
            : received === due
              ? `received: ${received} of ${due}, paid in full`
              : `received: ${received} of ${due}, overpaid by ${received - due}`;
    }
    steps.push({
      at: p.created_at,
      order: 0,
      kind: 'transfer',
      line: `transfer of ${where} ${effect} — payment ${p.id}`,
    });
  }
  for (const r of inspection.refunds)
    steps.push({
      at: r.created_at,
      order: 0,
      kind: 'refund',
      line: `refund of ${r.amount} (minor units, fee ${r.refund_fee}): checkout now ${r.status_after} — refund ${r.id}`,
    });
  return steps;
}

/** The story of `id`: its transfers and refunds, its events in order, each followed by its deliveries' attempts. */
export function story(
  id: string,
  events: SandboxEvent[],
  deliveries: Delivery[],
  checkout?: CheckoutInspection,
): { words: string; steps: Step[] } {
  const steps: Step[] = checkout ? checkoutSteps(checkout) : [];
  for (const event of events) {
    const status = statusOf(event);
    steps.push({
      at: event.created_at,
      order: 1,
      kind: 'event',
      line: `${event.type}${status ? ` (status ${status})` : ''} — event ${event.id}`,
    });
  }
  for (const delivery of deliveries) {
    for (const attempt of delivery.attempts) {
      const answer =
        attempt.error ??
        (attempt.response_status === null ? 'no answer' : `answered ${attempt.response_status}`);
      const chaos = attempt.chaos.length ? ` [chaos: ${attempt.chaos.map((c) => c.kind).join(', ')}]` : '';
      steps.push({
        at: attempt.at,
        order: 2,
        kind: 'webhook',
        line: `webhook ${delivery.event} attempt ${attempt.number} to ${delivery.url}: ${answer}${chaos}`,
      });
    }
    if (delivery.status === 'pending' && delivery.next_attempt_at)
      steps.push({
        at: delivery.next_attempt_at,
        order: 3,
        kind: 'webhook',
        line: `webhook ${delivery.event} next attempt due (delivery ${delivery.id})`,
      });
  }
  steps.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.order - b.order));
  const last = events.at(-1);
  const now = checkout?.checkout.status ?? (last ? statusOf(last) : undefined);
  const transfers = checkout
    ? `, ${checkout.payments.length} transfer${checkout.payments.length === 1 ? '' : 's'}`
    : '';
  const head = `${id}: ${events.length} event${events.length === 1 ? '' : 's'}${transfers}${now ? `, now ${now}` : ''}.`;
  return { words: [head, ...steps.map((s, i) => `${i + 1}. ${s.at}  ${s.line}`)].join('\n'), steps };
}

export const explainTool: Tool = {
  name: 'explain',
  title: "Explain an object's story",
  description:
    "Tell one object's story in order, in words: for a checkout the on-chain transfers (received, late, wrong chain) and refunds with what each did to it; every event about it (checkout.created, checkout.partial, card.transaction ...) and every webhook delivery attempt of those events, with the receiver's answers. Give any object id.",
  operations: [
    'sandboxListMerchants',
    'sandboxListMerchantEvents',
    'sandboxListDeliveries',
    'sandboxGetCheckout',
  ],
  input: ExplainInput,
  output: ExplainAnswer,
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  async run(args: Args, client) {
    const id = args.object_id;
    if (typeof id !== 'string' || id === '') throw new ToolRefusal('object_id: is required');
    const merchants =
      typeof args.merchant_id === 'string'
        ? [args.merchant_id]
        : (await client.call('sandboxListMerchants')).map((m) => m.id);
    const envs: Env[] = typeof args.env === 'string' ? [args.env as Env] : ['test', 'production'];
    for (const env of envs) {
      for (const merchant of merchants) {
        const events = await eventsAbout(client, merchant, env, id);
        if (events.length === 0) continue;
        const ids = new Set(events.map((e) => e.id));
        const deliveries = (
          await client.call('sandboxListDeliveries', { query: { merchant_id: merchant, env, limit: 1000 } })
        )
          .filter((d) => ids.has(d.event_id))
          .reverse();
        const checkout = events.some((e) => e.resource_id === id && e.type.startsWith('checkout.'))
          ? await client.call('sandboxGetCheckout', { params: { id } })
          : undefined;
        const { words, steps } = story(id, events, deliveries, checkout);
        const status = checkout?.checkout.status ?? (events.at(-1) ? statusOf(events.at(-1)!) : undefined);
        return {
          words,
          data: {
            id,
            merchant_id: merchant,
            env,
            status: status ?? null,
            steps: steps.map((s) => ({ at: s.at, kind: s.kind, what: s.line })),
          },
        };
      }
    }
    throw new ToolRefusal(
      `no events about ${id} in ${merchants.length === 1 ? `merchant ${merchants[0]}` : 'any merchant'} (${envs.join(' or ')}): events_list {merchant_id} lists what happened, checkouts_list {merchant_id} the checkouts`,
    );
  },
};
