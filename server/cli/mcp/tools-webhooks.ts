import { type Static, Type } from 'typebox';
import { type Env, EnvQuery, Nullable, Timestamp } from '../../contract/common.js';
import {
  ConfigureInboxBody,
  CreateEndpointBody,
  Delivery,
  DeliveryAttempt,
  DeliveryQuery,
  type Inbox,
  InboxMessage,
  InboxQuery,
  InboxSummary,
  ResendBody,
  TestEventBody,
  UpdateEndpointBody,
  WEBHOOK_HEADER,
  WebhookEndpoint,
} from '../../contract/webhooks.js';
import { DEFAULT_WORKSPACE_ID } from '../../contract/workspaces.js';
import { resolved, type SandboxClient } from '../client.js';
import {
  type Args,
  count,
  described,
  idArg,
  ids,
  list,
  merge,
  operationTool,
  structured,
  type Tool,
  ToolRefusal,
} from './tool.js';

// Webhooks: endpoints (and their chaos), deliveries with every attempt, and the built-in inbox, a
// receiver inside the sandbox that an agent can read without running a server of its own.

const EndpointBrief = Type.Pick(WebhookEndpoint, [
  'id',
  'merchant_id',
  'url',
  'events',
  'secret',
  'disabled',
  'chaos',
]);
type EndpointBrief = Static<typeof EndpointBrief>;
const endpointWords = (e: EndpointBrief) =>
  `Endpoint ${e.id} → ${e.url} (${e.events.join(', ')})${e.disabled ? ', disabled' : ''}${e.chaos ? `, chaos seed ${e.chaos.seed}` : ''}; secret ${e.secret}.`;

/** A delivery with each attempt's time, answer, error and chaos (not the signed request itself). */
export const DeliveryBrief = Type.Object({
  ...Type.Pick(Delivery, ['id', 'event', 'event_id', 'url', 'status', 'next_attempt_at']).properties,
  attempts: Type.Array(Type.Pick(DeliveryAttempt, ['number', 'at', 'response_status', 'error', 'chaos'])),
});
const deliveryWords = (d: Delivery) =>
  `Delivery ${d.id} of ${d.event} to ${d.url} is ${d.status} after ${count(d.attempts.length, 'attempt')}${d.next_attempt_at ? `; next attempt at ${d.next_attempt_at}` : ''}.`;

/** The webhook an inbox message carried: its envelope when the body is JSON, else the text. */
const Envelope = Type.Object(
  {
    id: Type.Optional(Type.String({ description: 'the event id' })),
    event: Type.Optional(Type.String({ description: 'the event type' })),
    data: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'the object the event is about' }),
    ),
  },
  { additionalProperties: true },
);

const InboxRead = Type.Object({
  name: InboxSummary.properties.name,
  response_status: InboxSummary.properties.response_status,
  messages: Type.Array(
    Type.Object({
      id: InboxMessage.properties.id,
      received_at: Timestamp,
      event: Nullable(Type.String({ description: 'the event type (its x-svc-event header)' })),
      delivery_id: Nullable(Type.String({ description: 'the delivery (its x-svc-delivery-id header)' })),
      signature_valid: InboxMessage.properties.signature_valid,
      body: Type.Union([Envelope, Type.String({ description: 'a body that is no JSON, as received' })], {
        description: 'the webhook as sent: {id, event, data}',
      }),
    }),
    { description: 'newest first' },
  ),
});
type InboxRead = Static<typeof InboxRead>;

/** The inbox's messages with the webhook each carried (its envelope parsed when it is JSON). */
const inboxShape = (inbox: Inbox): InboxRead => ({
  name: inbox.name,
  response_status: inbox.response_status,
  messages: inbox.messages.map((m) => {
    let envelope: Static<typeof Envelope> | string = m.body;
    try {
      const parsed = JSON.parse(m.body) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        envelope = parsed as Static<typeof Envelope>;
    } catch {}
    return {
      id: m.id,
      received_at: m.received_at,
      event:
        m.headers[WEBHOOK_HEADER.event] ??
        (typeof envelope === 'object' && typeof envelope.event === 'string' ? envelope.event : null),
      delivery_id: m.headers[WEBHOOK_HEADER.deliveryId] ?? null,
      signature_valid: m.signature_valid,
      body: envelope,
    };
  }),
});

const InboxReadInput = merge(
  ids('inbox_name'),
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
  title: 'Read a built-in inbox',
  description:
    'Read a built-in inbox: the webhooks it received (newest first) with their event, delivery id, whether the signature checked out, and the parsed body {id, event, data}. `wait_for_event` waits (up to timeout_seconds) for a webhook of that type, since deliveries are sent just after the change that caused them.',
  operations: ['sandboxGetInbox'],
  input: InboxReadInput,
  output: InboxRead,
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  async run(args, client) {
    const name = args.inbox_name;
    if (typeof name !== 'string' || name === '')
      throw new ToolRefusal('inbox_name: is required (the name given to inbox_endpoint_create)');
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
            ? `No ${want} webhook in inbox ${name} yet; it holds ${count(events.length, 'message')}${events.length ? ` (${events.join(', ')})` : ''}. A webhook is sent when its event fires: clock_advance makes expiries and retries fall due.`
            : `Inbox ${name} holds ${count(events.length, 'webhook')}${events.length ? `: ${events.join(', ')}` : ''}.`;
        return { words, data: structured(InboxRead, inbox) };
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
  ids('merchant_id'),
  Type.Object({
    inbox_name: idArg(
      'inbox_name',
      'the inbox to receive the webhooks: any name you choose (letters, digits, _ and -); read it with inbox_read',
    ),
  }),
  Type.Object({ events: CreateEndpointBody.properties.events }),
  EnvQuery,
);

const inboxEndpoint: Tool = {
  name: 'inbox_endpoint_create',
  title: "Send a merchant's webhooks to an inbox",
  description:
    'Point a webhook endpoint of the merchant at a built-in inbox (in this workspace), so its webhooks can be read with inbox_read. `events` defaults to every event. The quickest way to see the webhooks an app would get.',
  operations: ['sandboxListWorkspaces', 'sandboxCreateMerchantWebhookEndpoint'],
  input: InboxEndpoint,
  output: EndpointBrief,
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  async run(args: Args, client) {
    const merchant = args.merchant_id;
    const name = args.inbox_name;
    if (typeof merchant !== 'string' || merchant === '')
      throw new ToolRefusal('merchant_id: is required (merchants_list or merchant_create gives one)');
    if (typeof name !== 'string' || name === '')
      throw new ToolRefusal('inbox_name: is required (any name you choose, e.g. "hooks")');
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
      words: `Inbox ${name} receives the merchant's webhooks: read them with inbox_read {inbox_name: "${name}"}. ${endpointWords(endpoint)}`,
      data: structured(EndpointBrief, endpoint),
    };
  },
};

export const webhookTools: Tool[] = [
  operationTool<EndpointBrief>({
    name: 'webhook_endpoint_create',
    title: 'Register a webhook endpoint',
    description:
      "Register a webhook endpoint of the merchant: `url` (the app's receiver), `events` (default all). Answers its whsec_ signing secret. For a receiver inside the sandbox use inbox_endpoint_create.",
    operationId: 'sandboxCreateMerchantWebhookEndpoint',
    pathArg: 'merchant_id',
    query: EnvQuery,
    body: Type.Omit(CreateEndpointBody, ['forward_to']),
    output: EndpointBrief,
    words: endpointWords,
  }),
  operationTool<EndpointBrief[]>({
    name: 'webhook_endpoints_list',
    title: "List a merchant's webhook endpoints",
    description: "A merchant's webhook endpoints, with secrets and chaos settings.",
    operationId: 'sandboxListMerchantWebhookEndpoints',
    pathArg: 'merchant_id',
    query: EnvQuery,
    output: list(EndpointBrief),
    words: (items) =>
      `${count(items.length, 'endpoint')}${items.length ? `: ${items.map((e) => `${e.id} → ${e.url}`).join(', ')}` : ''}.`,
  }),
  operationTool<EndpointBrief>({
    name: 'webhook_endpoint_update',
    title: 'Change a webhook endpoint',
    description: 'Change an endpoint: url, events, or disabled (a disabled endpoint gets no new deliveries).',
    operationId: 'sandboxUpdateWebhookEndpoint',
    pathArg: 'endpoint_id',
    body: Type.Omit(UpdateEndpointBody, ['chaos']),
    output: EndpointBrief,
    words: endpointWords,
  }),
  operationTool<EndpointBrief>({
    name: 'webhook_chaos',
    title: "Set a webhook endpoint's delivery chaos",
    description:
      "Make an endpoint's deliveries misbehave on purpose, from a seed (replayable): duplicate (probability), reorder_window, delay {min_ms, max_ms}, drop, bad_signature (probabilities 0-1). `chaos: null` turns it off. Each attempt records what was done to it (delivery_get).",
    operationId: 'sandboxUpdateWebhookEndpoint',
    pathArg: 'endpoint_id',
    body: Type.Required(Type.Pick(UpdateEndpointBody, ['chaos'])),
    output: EndpointBrief,
    words: endpointWords,
  }),
  operationTool<undefined>({
    name: 'webhook_endpoint_delete',
    title: 'Remove a webhook endpoint',
    description: 'Remove a webhook endpoint (its pending deliveries fail).',
    operationId: 'sandboxDeleteWebhookEndpoint',
    pathArg: 'endpoint_id',
    output: Type.Object({ deleted: idArg('endpoint_id', 'the endpoint removed') }),
    words: (_, args) => `Deleted endpoint ${String(args.endpoint_id)}.`,
    shape: (_, args) => ({ deleted: args.endpoint_id }),
  }),
  operationTool<Delivery>({
    name: 'webhook_endpoint_test',
    title: 'Send a test webhook',
    description:
      "Send a test webhook (a sample `event`, signed like any other) to the endpoint's URL now; answers the delivery and its first attempt.",
    operationId: 'sandboxTestWebhookEndpoint',
    pathArg: 'endpoint_id',
    body: TestEventBody,
    openWorld: true,
    output: DeliveryBrief,
    words: deliveryWords,
  }),
  operationTool<Delivery[]>({
    name: 'deliveries_list',
    title: 'List webhook deliveries',
    description:
      'Webhook deliveries, newest first, each with every attempt (time, response status, error, chaos); filter by merchant_id, endpoint_id, event, status.',
    operationId: 'sandboxListDeliveries',
    query: DeliveryQuery,
    output: list(DeliveryBrief),
    words: (items) =>
      `${count(items.length, 'delivery', 'deliveries')}${items.length ? `: ${items.map((d) => `${d.event} ${d.status}`).join(', ')}` : ''}.`,
  }),
  operationTool<Delivery>({
    name: 'delivery_get',
    title: 'Get a webhook delivery',
    description:
      'One webhook delivery with every attempt: time, response status, error and chaos per attempt (the signed request itself is in the sandbox answer, GET /sandbox/deliveries/{id}).',
    operationId: 'sandboxGetDelivery',
    pathArg: 'delivery_id',
    output: DeliveryBrief,
    words: deliveryWords,
  }),
  operationTool<Delivery>({
    name: 'delivery_retry',
    title: 'Retry a webhook delivery',
    description:
      'Retry a delivery now (same delivery id, same signed body, to its URL), without waiting for its next scheduled attempt.',
    operationId: 'sandboxRetryDelivery',
    pathArg: 'delivery_id',
    openWorld: true,
    output: DeliveryBrief,
    words: deliveryWords,
  }),
  operationTool<Delivery>({
    name: 'delivery_resend',
    title: 'Resend a webhook to another endpoint',
    description:
      "Send a delivery's event again to another endpoint (`endpoint_id`) of the same merchant, as a new delivery.",
    operationId: 'sandboxResendDelivery',
    pathArg: 'delivery_id',
    body: Type.Object({
      endpoint_id: described(ResendBody.properties.endpoint_id, 'the endpoint to send it to (same merchant)'),
    }),
    openWorld: true,
    output: DeliveryBrief,
    words: deliveryWords,
  }),
  inboxEndpoint,
  inboxRead,
  operationTool<InboxSummary[]>({
    name: 'inboxes_list',
    title: 'List the built-in inboxes',
    description: 'The built-in inboxes of the workspace and the status each answers with.',
    operationId: 'sandboxListInboxes',
    output: list(InboxSummary, 'every inbox of the workspace'),
    words: (items) =>
      `${count(items.length, 'inbox', 'inboxes')}${items.length ? `: ${items.map((i) => `${i.name} (answers ${i.response_status})`).join(', ')}` : ''}.`,
  }),
  operationTool<InboxSummary>({
    name: 'inbox_configure',
    title: 'Set the status an inbox answers',
    description:
      'Set the HTTP status the inbox answers with (`response_status`, e.g. 500 to rehearse a receiver that is down: deliveries then retry on the sandbox clock).',
    operationId: 'sandboxUpdateInbox',
    pathArg: 'inbox_name',
    body: ConfigureInboxBody,
    output: InboxSummary,
    words: (i) => `Inbox ${i.name} now answers ${i.response_status}.`,
  }),
  operationTool<undefined>({
    name: 'inbox_clear',
    title: "Clear an inbox's messages",
    description:
      "Delete the inbox's messages, to start a test from an empty inbox (its response_status stays).",
    operationId: 'sandboxClearInboxMessages',
    pathArg: 'inbox_name',
    output: Type.Object({ cleared: idArg('inbox_name', 'the inbox emptied') }),
    words: (_, args) => `Cleared inbox ${String(args.inbox_name)}.`,
    shape: (_, args) => ({ cleared: args.inbox_name }),
  }),
];
