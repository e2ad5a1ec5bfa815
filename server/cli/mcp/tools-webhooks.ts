import { Type } from 'typebox';
import { type Env, EnvQuery, IdParams } from '../../contract/common.js';
import {
  ConfigureInboxBody,
  CreateEndpointBody,
  type Delivery,
  DeliveryQuery,
  type Inbox,
  InboxName,
  InboxQuery,
  type InboxSummary,
  ResendBody,
  TestEventBody,
  UpdateEndpointBody,
  type WebhookEndpoint,
} from '../../contract/webhooks.js';
import { DEFAULT_WORKSPACE_ID } from '../../contract/workspaces.js';
import { resolved, type SandboxClient } from '../client.js';
import { type Args, count, merge, operationTool, type Tool, ToolRefusal } from './tool.js';

// Webhooks: endpoints (and their chaos), deliveries with every attempt, and the built-in inbox, a
// receiver inside the sandbox that an agent can read without running a server of its own.

const endpointShape = (e: WebhookEndpoint) => ({
  id: e.id,
  merchant_id: e.merchant_id,
  url: e.url,
  events: e.events,
  secret: e.secret,
  disabled: e.disabled,
  chaos: e.chaos,
});
const endpointWords = (e: WebhookEndpoint) =>
  `Endpoint ${e.id} → ${e.url} (${e.events.join(', ')})${e.disabled ? ', disabled' : ''}${e.chaos ? `, chaos seed ${e.chaos.seed}` : ''}; secret ${e.secret}.`;

export const deliveryShape = (d: Delivery) => ({
  id: d.id,
  event: d.event,
  event_id: d.event_id,
  url: d.url,
  status: d.status,
  next_attempt_at: d.next_attempt_at,
  attempts: d.attempts.map((a) => ({
    number: a.number,
    at: a.at,
    response_status: a.response_status,
    error: a.error,
    chaos: a.chaos.map((c) => c.kind),
  })),
});
const deliveryWords = (d: Delivery) =>
  `Delivery ${d.id} of ${d.event} to ${d.url} is ${d.status} after ${count(d.attempts.length, 'attempt')}${d.next_attempt_at ? `; next attempt at ${d.next_attempt_at}` : ''}.`;

interface Envelope {
  id?: unknown;
  event?: unknown;
  data?: unknown;
}

/** The inbox's messages with the webhook each carried (its envelope parsed when it is JSON). */
const inboxShape = (inbox: Inbox) => ({
  name: inbox.name,
  response_status: inbox.response_status,
  messages: inbox.messages.map((m) => {
    let envelope: Envelope | string = m.body;
    try {
      envelope = JSON.parse(m.body) as Envelope;
    } catch {}
    return {
      id: m.id,
      received_at: m.received_at,
      event: m.headers['x-svc-event'] ?? (typeof envelope === 'object' ? envelope.event : undefined),
      delivery_id: m.headers['x-svc-delivery-id'],
      signature_valid: m.signature_valid,
      body: envelope,
    };
  }),
});

const InboxRead = merge(
  InboxName,
  InboxQuery,
  Type.Object({
    wait_for_event: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'wait until a webhook of this event type (e.g. checkout.partial) is in the inbox',
      }),
    ),
    timeout_seconds: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 60, description: 'how long to wait (real seconds, default 10)' }),
    ),
  }),
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const inboxRead: Tool = {
  name: 'inbox_read',
  description:
    'Read the built-in inbox `name`: the webhooks it received (newest first) with their event, delivery id, whether the signature checked out, and the parsed body {id, event, data}. `wait_for_event` waits (up to timeout_seconds) for a webhook of that type, since deliveries are sent just after the change that caused them.',
  operations: ['sandboxGetInbox'],
  input: InboxRead,
  async run(args, client) {
    const name = args.name;
    if (typeof name !== 'string' || name === '') throw new ToolRefusal('name: is required');
    const limit = typeof args.limit === 'number' ? { limit: args.limit } : {};
    const want = typeof args.wait_for_event === 'string' ? args.wait_for_event : undefined;
    const deadline =
      performance.now() + (typeof args.timeout_seconds === 'number' ? args.timeout_seconds : 10) * 1000;
    for (;;) {
      const inbox = inboxShape(await client.call('sandboxGetInbox', { params: { name }, query: limit }));
      const found = want === undefined || inbox.messages.some((m) => m.event === want);
      if (found || performance.now() >= deadline) {
        const events = inbox.messages.map((m) => m.event ?? '?');
        const words =
          want !== undefined && !found
            ? `No ${want} webhook in inbox ${name} yet; it holds ${count(events.length, 'message')}${events.length ? ` (${events.join(', ')})` : ''}.`
            : `Inbox ${name} holds ${count(events.length, 'webhook')}${events.length ? `: ${events.join(', ')}` : ''}.`;
        return { words, data: inbox };
      }
      await sleep(200);
    }
  },
};

/** The inbox's URL as the sandbox's webhook sender reaches it: in this client's workspace. */
async function inboxUrl(client: SandboxClient, name: string): Promise<string> {
  const id =
    client.workspace === undefined ? DEFAULT_WORKSPACE_ID : (await client.findWorkspace(client.workspace)).id;
  const prefix = id === DEFAULT_WORKSPACE_ID ? '' : `/w/${encodeURIComponent(id)}`;
  return `${client.baseUrl}${prefix}${resolved('sandboxReceiveInboxWebhook', { params: { name } }).path}`;
}

const InboxEndpoint = merge(
  Type.Object({ merchant_id: IdParams.properties.id }),
  InboxName,
  Type.Object({ events: CreateEndpointBody.properties.events }),
  EnvQuery,
);

const inboxEndpoint: Tool = {
  name: 'inbox_endpoint_create',
  description:
    'Point a webhook endpoint of the merchant at the built-in inbox `name` (in this workspace), so its webhooks can be read with inbox_read. `events` defaults to every event. The quickest way to see the webhooks an app would get.',
  operations: ['sandboxListWorkspaces', 'sandboxCreateMerchantWebhookEndpoint'],
  input: InboxEndpoint,
  async run(args: Args, client) {
    const merchant = args.merchant_id;
    const name = args.name;
    if (typeof merchant !== 'string' || merchant === '') throw new ToolRefusal('merchant_id: is required');
    if (typeof name !== 'string' || name === '') throw new ToolRefusal('name: is required');
    const url = await inboxUrl(client, name);
    const endpoint = await client.call('sandboxCreateMerchantWebhookEndpoint', {
      params: { id: merchant },
      query: typeof args.env === 'string' ? { env: args.env as Env } : {},
      body: {
        url,
        ...(args.events === undefined ? {} : { events: args.events as string[] }),
      },
    });
    return {
      words: `Inbox ${name} receives the merchant's webhooks. ${endpointWords(endpoint)}`,
      data: endpointShape(endpoint),
    };
  },
};

export const webhookTools: Tool[] = [
  operationTool<WebhookEndpoint>({
    name: 'webhook_endpoint_create',
    description:
      "Register a webhook endpoint of the merchant: `url` (the app's receiver), `events` (default all). Answers its whsec_ signing secret. For a receiver inside the sandbox use inbox_endpoint_create.",
    operationId: 'sandboxCreateMerchantWebhookEndpoint',
    params: IdParams,
    query: EnvQuery,
    body: Type.Omit(CreateEndpointBody, ['forward_to']),
    words: endpointWords,
    shape: endpointShape,
  }),
  operationTool<WebhookEndpoint[]>({
    name: 'webhook_endpoints_list',
    description: "A merchant's webhook endpoints, with secrets and chaos settings.",
    operationId: 'sandboxListMerchantWebhookEndpoints',
    params: IdParams,
    query: EnvQuery,
    words: (list) =>
      `${count(list.length, 'endpoint')}${list.length ? `: ${list.map((e) => `${e.id} → ${e.url}`).join(', ')}` : ''}.`,
    shape: (list) => list.map(endpointShape),
  }),
  operationTool<WebhookEndpoint>({
    name: 'webhook_endpoint_update',
    description: 'Change an endpoint: url, events, or disabled (a disabled endpoint gets no new deliveries).',
    operationId: 'sandboxUpdateWebhookEndpoint',
    params: IdParams,
    body: Type.Omit(UpdateEndpointBody, ['chaos']),
    words: endpointWords,
    shape: endpointShape,
  }),
  operationTool<WebhookEndpoint>({
    name: 'webhook_chaos',
    description:
      "Make an endpoint's deliveries misbehave on purpose, from a seed (replayable): duplicate (probability), reorder_window, delay {min_ms, max_ms}, drop, bad_signature (probabilities 0-1). `chaos: null` turns it off. Each attempt records what was done to it (delivery_get).",
    operationId: 'sandboxUpdateWebhookEndpoint',
    params: IdParams,
    body: Type.Required(Type.Pick(UpdateEndpointBody, ['chaos'])),
    words: endpointWords,
    shape: endpointShape,
  }),
  operationTool<undefined>({
    name: 'webhook_endpoint_delete',
    description: 'Remove a webhook endpoint (its pending deliveries fail).',
    operationId: 'sandboxDeleteWebhookEndpoint',
    params: IdParams,
    words: (_, args) => `Deleted endpoint ${String(args.id)}.`,
    shape: (_, args) => ({ deleted: args.id }),
  }),
  operationTool<Delivery>({
    name: 'webhook_endpoint_test',
    description:
      'Send a test webhook (a sample `event`, signed like any other) to the endpoint now; answers the delivery and its first attempt.',
    operationId: 'sandboxTestWebhookEndpoint',
    params: IdParams,
    body: TestEventBody,
    words: deliveryWords,
    shape: deliveryShape,
  }),
  operationTool<Delivery[]>({
    name: 'deliveries_list',
    description:
      'Webhook deliveries, newest first, each with every attempt (time, response status, error, chaos); filter by merchant_id, endpoint_id, event, status.',
    operationId: 'sandboxListDeliveries',
    query: DeliveryQuery,
    words: (list) =>
      `${count(list.length, 'delivery', 'deliveries')}${list.length ? `: ${list.map((d) => `${d.event} ${d.status}`).join(', ')}` : ''}.`,
    shape: (list) => list.map(deliveryShape),
  }),
  operationTool<Delivery>({
    name: 'delivery_get',
    description:
      'One webhook delivery with every attempt: request headers and body are in the sandbox answer; here time, status, error and chaos per attempt.',
    operationId: 'sandboxGetDelivery',
    params: IdParams,
    words: deliveryWords,
    shape: deliveryShape,
  }),
  operationTool<Delivery>({
    name: 'delivery_retry',
    description:
      'Retry a delivery now (same delivery id, same signed body), without waiting for its next scheduled attempt.',
    operationId: 'sandboxRetryDelivery',
    params: IdParams,
    words: deliveryWords,
    shape: deliveryShape,
  }),
  operationTool<Delivery>({
    name: 'delivery_resend',
    description:
      "Send a delivery's event again to another endpoint (`endpoint_id`) of the same merchant, as a new delivery.",
    operationId: 'sandboxResendDelivery',
    params: IdParams,
    body: ResendBody,
    words: deliveryWords,
    shape: deliveryShape,
  }),
  inboxEndpoint,
  inboxRead,
  operationTool<InboxSummary[]>({
    name: 'inboxes_list',
    description: 'The built-in inboxes of the workspace and the status each answers with.',
    operationId: 'sandboxListInboxes',
    words: (list) =>
      `${count(list.length, 'inbox', 'inboxes')}${list.length ? `: ${list.map((i) => `${i.name} (answers ${i.response_status})`).join(', ')}` : ''}.`,
  }),
  operationTool<InboxSummary>({
    name: 'inbox_configure',
    description:
      'Set the HTTP status the inbox answers with (`response_status`, e.g. 500 to rehearse a receiver that is down: deliveries then retry on the sandbox clock).',
    operationId: 'sandboxUpdateInbox',
    params: InboxName,
    body: ConfigureInboxBody,
    words: (i) => `Inbox ${i.name} now answers ${i.response_status}.`,
  }),
  operationTool<undefined>({
    name: 'inbox_clear',
    description:
      "Delete the inbox's messages, to start a test from an empty inbox (its response_status stays).",
    operationId: 'sandboxClearInboxMessages',
    params: InboxName,
    words: (_, args) => `Cleared inbox ${String(args.name)}.`,
    shape: (_, args) => ({ cleared: args.name }),
  }),
];
