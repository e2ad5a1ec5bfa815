import { Type } from 'typebox';
import { type Env, EnvName, Uuid } from '../../contract/common.js';
import type { SandboxEvent } from '../../contract/sandbox-state.js';
import type { Delivery } from '../../contract/webhooks.js';
import type { SandboxClient } from '../client.js';
import { type Args, type Tool, ToolRefusal } from './tool.js';

// `explain`: one object's story in order, from the sandbox's own records: the events about it and
// the webhook deliveries of those events, attempt by attempt.

const ExplainInput = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 200,
    description:
      'the id of a checkout, card transaction, cardholder, card, deposit, payout, invoice or event',
  }),
  merchant_id: Type.Optional(Uuid),
  env: Type.Optional(EnvName),
});

interface Step {
  at: string;
  /** events before the attempts made at the same instant */
  order: number;
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

/** The story of `id`: its events in order, each followed by its deliveries' attempts. */
export function story(
  id: string,
  events: SandboxEvent[],
  deliveries: Delivery[],
): { words: string; steps: Step[] } {
  const steps: Step[] = [];
  for (const event of events) {
    const status = statusOf(event);
    steps.push({
      at: event.created_at,
      order: 0,
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
        order: 1,
        line: `webhook ${delivery.event} attempt ${attempt.number} to ${delivery.url}: ${answer}${chaos}`,
      });
    }
    if (delivery.status === 'pending' && delivery.next_attempt_at)
      steps.push({
        at: delivery.next_attempt_at,
        order: 2,
        line: `webhook ${delivery.event} next attempt due (delivery ${delivery.id})`,
      });
  }
  steps.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.order - b.order));
  const last = events.at(-1);
  const now = last ? statusOf(last) : undefined;
  const head = `${id}: ${events.length} event${events.length === 1 ? '' : 's'}${now ? `, now ${now}` : ''}.`;
  return { words: [head, ...steps.map((s, i) => `${i + 1}. ${s.at}  ${s.line}`)].join('\n'), steps };
}

export const explainTool: Tool = {
  name: 'explain',
  description:
    "Tell one object's story in order, in words: every event about it (checkout.created, checkout.partial, card.transaction ...) and every webhook delivery attempt of those events, with the receiver's answers. Give any object id; merchant_id and env narrow the search (default: every merchant, test then production).",
  operations: ['sandboxListMerchants', 'sandboxListMerchantEvents', 'sandboxListDeliveries'],
  input: ExplainInput,
  async run(args: Args, client) {
    const id = args.id;
    if (typeof id !== 'string' || id === '') throw new ToolRefusal('id: is required');
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
        const { words, steps } = story(id, events, deliveries);
        return {
          words,
          data: { id, merchant_id: merchant, env, steps: steps.map((s) => ({ at: s.at, what: s.line })) },
        };
      }
    }
    throw new ToolRefusal(
      `no events about ${id} in ${merchants.length === 1 ? `merchant ${merchants[0]}` : 'any merchant'} (${envs.join(' or ')})`,
    );
  },
};
