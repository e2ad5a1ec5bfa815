// The floor of a webhook delivery: what any server that stores and sends one the way the sandbox
// does must spend, and nothing else. `POST /deposits` stores the deposit, its `deposit.received`
// event and one delivery per endpoint (pending), commits, answers; then each delivery is signed
// (HMAC-SHA256 of its body) and POSTed with undici's `request` (what the webhooks section's bare
// loop sends with), and its answer recorded: the attempt row and the delivery's new state, the
// turn's answers committed together. The sandbox's schema (the build's template: the same tables,
// indexes and coverage triggers), the same connection settings (bench/floor-db.js). Left out:
// everything else the sandbox does for a deposit and its deliveries (the ledger and the balance,
// the static address and txid checks, the fan-out's lease and retry jobs, chaos, the request log,
// the live stream).
//
//   node bench/delivery-floor-server.js   (prints "delivery floor ready url=… key=…"; the webhooks
//   section starts it)
//
//   POST /endpoints {url}                  subscribes `url` to every deposit (answers {id})
//   POST /deposits {amount, currency, txid} (answers {id} once stored; the sends follow)
//
// FLOOR_STATS=1: every 2 s, the commits and the writes (deposits, recorded answers) they held.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { Agent, request } from 'undici';
import { groupCommit, openFloorDb, reportStats, serveFloor } from './floor-db.js';

const floorDb = openFloorDb('delivery-floor');
const { db, merchant: MERCHANT } = floorDb;
const batch = groupCommit(db);
reportStats(batch.stats);

const insertEndpoint = db.prepare(
  `INSERT INTO webhook_endpoints (id, merchant_id, env, url, events, secret, created_at)
   VALUES (?, ?, 'test', ?, '["*"]', ?, ?)`,
);
const insertDeposit = db.prepare(
  `INSERT INTO deposits (id, merchant_id, env, chain, address, currency, amount, txid, created_at)
   VALUES (?, ?, 'test', 'tron', 'TFloorStaticAddress', ?, ?, ?, ?)`,
);
const insertEvent = db.prepare(
  'INSERT INTO events (id, env, merchant_id, type, resource_id, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
);
const insertDelivery = db.prepare(
  `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, merchant_id, env, event, url, data, status,
     attempt_count, next_attempt_at, created_at, updated_at)
   VALUES (?, ?, ?, ?, 'test', 'deposit.received', ?, NULL, 'pending', 0, NULL, ?, ?)`,
);
const updateDelivery = db.prepare(
  'UPDATE webhook_deliveries SET status = ?, attempt_count = ?, next_attempt_at = NULL, updated_at = ? WHERE id = ?',
);
const insertAttempt = db.prepare(
  `INSERT INTO webhook_attempts (delivery_id, number, at, signature, response_status, response_body,
     duration_ms, error, chaos)
   VALUES (?, 1, ?, ?, ?, ?, ?, ?, NULL)`,
);

/** The endpoints: every deposit goes to each. */
const endpoints = [];

const store = db.transaction((body) => {
  const now = new Date().toISOString();
  const id = randomUUID();
  insertDeposit.run(id, MERCHANT, body.currency, body.amount, body.txid, now);
  const eventId = randomUUID();
  const data = JSON.stringify({
    merchant_id: MERCHANT,
    amount: body.amount,
    currency: body.currency,
    txid: body.txid,
  });
  insertEvent.run(eventId, 'test', MERCHANT, 'deposit.received', id, data, now);
  const deliveries = endpoints.map((endpoint) => {
    const delivery = { id: randomUUID(), endpoint, data };
    insertDelivery.run(delivery.id, eventId, endpoint.id, MERCHANT, endpoint.url, now, now);
    return delivery;
  });
  return { id, deliveries };
});

const record = db.transaction((answers) => {
  const now = new Date().toISOString();
  for (const { delivery, signature, status, text, ms, error } of answers) {
    insertAttempt.run(delivery.id, now, signature, status, text, ms, error);
    updateDelivery.run(status !== null && status < 300 ? 'delivered' : 'failed', 1, now, delivery.id);
  }
});

const agent = new Agent({ keepAliveTimeout: 30_000, connections: 128, pipelining: 1 });
let answered = [];
/** Records the turn's answers in one transaction (a savepoint of the batch's). */
function recordLater(answer) {
  answered.push(answer);
  if (answered.length > 1) return;
  setImmediate(() => {
    const answers = answered;
    answered = [];
    batch.join();
    record(answers);
  });
}

async function send(delivery) {
  const body = `{"id":${JSON.stringify(delivery.id)},"event":"deposit.received","data":${delivery.data}}`;
  const signature = `sha256=${createHmac('sha256', delivery.endpoint.secret).update(body).digest('hex')}`;
  const started = performance.now();
  let status = null;
  let text = null;
  let error = null;
  try {
    const response = await request(delivery.endpoint.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'svc-sandbox-floor',
        'x-svc-event': 'deposit.received',
        'x-svc-delivery-id': delivery.id,
        'x-svc-signature': signature,
      },
      body,
      dispatcher: agent,
    });
    status = response.statusCode;
    text = await response.body.text();
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  }
  recordLater({ delivery, signature, status, text, ms: Math.round(performance.now() - started), error });
}

const app = Fastify({ logger: false });
app.post(
  '/endpoints',
  { schema: { body: { type: 'object', required: ['url'], properties: { url: { type: 'string' } } } } },
  async (request) => {
    const endpoint = { id: randomUUID(), url: request.body.url, secret: randomBytes(24).toString('hex') };
    insertEndpoint.run(endpoint.id, MERCHANT, endpoint.url, endpoint.secret, new Date().toISOString());
    endpoints.push(endpoint);
    return { id: endpoint.id };
  },
);
app.post(
  '/deposits',
  {
    schema: {
      body: {
        type: 'object',
        required: ['amount', 'currency', 'txid'],
        additionalProperties: false,
        properties: {
          amount: { type: 'integer', minimum: 1 },
          currency: { type: 'string', minLength: 1, maxLength: 16 },
          txid: { type: 'string', minLength: 1, maxLength: 200 },
        },
      },
    },
  },
  async (request, reply) => {
    batch.join();
    const { id, deliveries } = store(request.body);
    await batch.durable();
    for (const delivery of deliveries) void send(delivery);
    return reply.code(201).send({ id });
  },
);
await serveFloor(app, 'delivery floor', floorDb);
