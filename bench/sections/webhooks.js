// (c) Webhook delivery: deliveries/s to a local receiver (every attempt persisted by the sandbox)
// and latency from the simulation call to receipt. The receiver runs in this (bench) process on
// 127.0.0.1; the sandbox is the real CLI on a file database, as in the checkouts section.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { api, startSandbox, stop, tempDir } from '../lib.js';

const ENDPOINTS = 8;
const DEPOSITS = 1000;
const CONCURRENCY = 8;
const LATENCY_SAMPLES = 300;

function receiver() {
  const arrivals = new Map();
  let count = 0;
  let last = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      count++;
      last = now;
      if (!arrivals.has(body.data.txid)) arrivals.set(body.data.txid, now);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.keepAliveTimeout = 60_000;
  return {
    arrivals,
    get count() {
      return count;
    },
    get last() {
      return last;
    },
    listen: () =>
      new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port))),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function waitUntil(predicate, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
  return true;
}

export default {
  name: 'webhooks',
  async run() {
    const inbox = receiver();
    const port = await inbox.listen();
    const url = `http://127.0.0.1:${port}/hook`;
    const sandbox = await startSandbox({ dbPath: join(tempDir(), 'bench-webhooks.db') });
    try {
      const base = sandbox.urls.test;
      await api(base, 'PATCH', '/sandbox/settings', {
        body: { rate_limit_per_minute: 0, concurrency_limit: 0 },
      });
      const deposit = (merchant_id, txid) =>
        api(base, 'POST', '/sandbox/deposits', {
          body: { merchant_id, chain: 'tron', currency: 'USDT', amount: 1_000_000, txid },
        });

      // Throughput: ENDPOINTS subscribers, DEPOSITS events, CONCURRENCY calls in flight.
      const { merchant: busy } = await api(base, 'POST', '/sandbox/merchants', { body: { name: 'Busy' } });
      for (let i = 0; i < ENDPOINTS; i++) {
        await api(base, 'POST', `/sandbox/merchants/${busy.id}/webhook-endpoints`, {
          body: { url: `${url}?e=${i}`, events: ['deposit.received'] },
        });
      }
      const expected = ENDPOINTS * DEPOSITS;
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < DEPOSITS) await deposit(busy.id, `tp-${next++}`);
        }),
      );
      const complete = await waitUntil(() => inbox.count >= expected, 30_000);
      const elapsed = (inbox.last - started) / 1000;
      const failed = await api(
        base,
        'GET',
        `/sandbox/deliveries?merchant_id=${busy.id}&status=failed&limit=1`,
      );
      const persisted = await api(base, 'GET', `/sandbox/deliveries?merchant_id=${busy.id}&limit=1000`);
      const allAttempted = persisted.every((d) => d.status === 'delivered' && d.attempts.length === 1);

      // Latency: one subscriber, one call at a time, simulation call → receipt.
      const { merchant: calm } = await api(base, 'POST', '/sandbox/merchants', { body: { name: 'Calm' } });
      await api(base, 'POST', `/sandbox/merchants/${calm.id}/webhook-endpoints`, {
        body: { url, events: ['deposit.received'] },
      });
      const latencies = [];
      for (let i = 0; i < LATENCY_SAMPLES; i++) {
        const txid = `lat-${i}`;
        const sent = performance.now();
        await deposit(calm.id, txid);
        await waitUntil(() => inbox.arrivals.has(txid), 5_000);
        latencies.push(inbox.arrivals.get(txid) - sent);
      }
      latencies.sort((a, b) => a - b);

      return [
        {
          kind: 'webhook',
          name: `deliveries (${ENDPOINTS} endpoints × ${DEPOSITS} events)`,
          rate: complete ? inbox.count / elapsed : 0,
          delivered: inbox.count,
          expected,
          clean: complete && failed.length === 0 && allAttempted,
          p50_ms: percentile(latencies, 50),
          p99_ms: percentile(latencies, 99),
          samples: latencies.length,
          target: { minRate: 2000, maxP50Ms: 5 },
        },
      ];
    } finally {
      await stop(sandbox.child);
      await inbox.close();
    }
  },
};
