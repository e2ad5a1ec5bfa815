// The floor of a checkout create: what any server that stores one the way the sandbox does must
// spend, and nothing else. Fastify (schema-validated JSON body, no plugins, no hooks), the
// sandbox's own schema (the build's template: the same tables, indexes and coverage triggers),
// the same connection settings, and the same writes: the checkout row, its `checkout.created`
// event (the checkout as its data), its expiry job, each request a savepoint of a transaction
// committed once per event-loop turn, the answer sent after the commit. Left out: everything the
// sandbox adds to a request (workspaces, API keys looked up, the request log, recordings, faults,
// coverage reads, webhook fan-out, the clock) and the deposit addresses' derivation (random hex
// here; the sandbox's address worker spends 24–25 µs a checkout on it).
//
//   node bench/write-floor-server.js   (prints "floor ready url=… key=…"; the http section and
//   tools/write-floor.js start it)
//
// FLOOR_NO_DB=1: the same routes answering without SQLite (HTTP, validation and JSON alone).
// FLOOR_STATS=1: every 2 s, the commits and the creates they held so far, on stderr (the group
// commit's batch size).
// FLOOR_NODE_ARGS (read by bench/lib.js): node options for it, e.g. '--cpu-prof --cpu-prof-dir d'.
import { randomBytes, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { groupCommit, openFloorDb, reportStats, serveFloor } from './floor-db.js';

const floorDb = openFloorDb('floor');
const { db, merchant: MERCHANT, key: KEY } = floorDb;

const insertCheckout = db.prepare(
  `INSERT INTO checkouts (id, merchant_id, env, title, description, amount, currency, method, status,
     reference, customer_id, crypto_chains, success_url, cancel_url, expires_at, created_at, updated_at)
   VALUES (@id, @merchant_id, @env, @title, @description, @amount, @currency, @method, @status,
     @reference, @customer_id, @crypto_chains, @success_url, @cancel_url, @expires_at, @created_at, @updated_at)`,
);
const insertEvent = db.prepare(
  'INSERT INTO events (id, env, merchant_id, type, resource_id, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
);
const scheduleJob = db.prepare(
  `INSERT INTO jobs (kind, ref, due_at, payload) VALUES (?, ?, ?, ?)
   ON CONFLICT (kind, ref) DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload,
     failed_at = NULL, last_error = NULL`,
);
const byId = db.prepare('SELECT * FROM checkouts WHERE id = ?');

// Each request a savepoint (better-sqlite3 nests db.transaction() as one) of the turn's transaction.
const batch = groupCommit(db);
reportStats(batch.stats);

const CHAINS = ['ethereum', 'polygon', 'bsc', 'tron'];
/** A checkout's chains, each with a deposit address (random hex: no derivation). */
const depositChains = () =>
  CHAINS.map((chain) => ({
    chain,
    address: `0x${randomBytes(20).toString('hex')}`,
    tokens: ['USDC', 'USDT'],
  }));

const create = db.transaction((body) => {
  const now = new Date();
  const id = randomUUID();
  const chains = depositChains();
  const row = {
    id,
    merchant_id: MERCHANT,
    env: 'test',
    title: body.title,
    description: body.description ?? null,
    amount: body.amount,
    currency: body.currency ?? 'USD',
    method: 'crypto',
    status: 'active',
    reference: null,
    customer_id: null,
    crypto_chains: JSON.stringify(chains),
    success_url: null,
    cancel_url: null,
    expires_at: body.expires_at,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  insertCheckout.run(row);
  const view = { ...row, object: 'checkout', crypto_chains: chains, received_amount: 0, refunded_amount: 0 };
  insertEvent.run(
    randomUUID(),
    'test',
    MERCHANT,
    'checkout.created',
    id,
    JSON.stringify(view),
    row.created_at,
  );
  scheduleJob.run('checkout.expire', id, Date.parse(body.expires_at), null);
  return view;
});

/** FLOOR_NO_DB's answer: a checkout made up, stored nowhere. */
const unstored = (body) => ({
  id: randomUUID(),
  object: 'checkout',
  merchant_id: MERCHANT,
  env: 'test',
  ...body,
  crypto_chains: depositChains(),
  created_at: new Date().toISOString(),
});
const app = Fastify({ logger: false });
const authorized = (request, reply) => {
  if (request.headers.authorization === `Bearer ${KEY}`) return true;
  reply.code(401).send({ error: 'Unauthorized' });
  return false;
};
app.post(
  '/v1/checkouts',
  {
    schema: {
      body: {
        type: 'object',
        required: ['title', 'expires_at'],
        additionalProperties: false,
        properties: {
          title: { type: 'string', minLength: 1, maxLength: 200 },
          description: { type: 'string', maxLength: 1000 },
          amount: { type: 'integer', minimum: 1 },
          currency: { type: 'string', minLength: 3, maxLength: 8 },
          expires_at: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
  async (request, reply) => {
    if (!authorized(request, reply)) return reply;
    if (process.env.FLOOR_NO_DB) return reply.code(201).send(unstored(request.body));
    batch.join();
    const view = create(request.body);
    await batch.durable();
    return reply.code(201).send(view);
  },
);
app.get('/v1/checkouts/:id', async (request, reply) => {
  if (!authorized(request, reply)) return reply;
  if (process.env.FLOOR_NO_DB) return unstored({ title: 'Floor', amount: 5_000_000 });
  const row = byId.get(request.params.id);
  if (!row) return reply.code(404).send({ error: 'Not found' });
  return { ...row, object: 'checkout', crypto_chains: JSON.parse(row.crypto_chains) };
});
await serveFloor(app, 'floor', floorDb);
