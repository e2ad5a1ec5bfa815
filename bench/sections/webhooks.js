// Webhook delivery vs a bare undici POST loop to the same receiver, interleaved (bare, sandbox,
// bare): deliveries/s as a ratio of the loop's POSTs/s, and the latency from the simulation call
// to receipt (p50, p99). The receiver runs in this (bench) process on 127.0.0.1; the sandbox is
// the real CLI on a file database (every delivery and attempt persisted); the loop is its own process.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  api,
  cpuSeconds,
  figure,
  fmt,
  limitsOff,
  percentile,
  startDeliveryFloor,
  startSandbox,
  stop,
  tempDir,
  throughputTarget,
  track,
} from '../lib.js';

const BARE_LOOP = fileURLToPath(new URL('../bare-webhook-loop.js', import.meta.url));
// Deliveries/s against the bare loop's POSTs/s, and the sandbox's CPU per delivery (its share of
// the deposit call that made it included): the bare loop spends ~110 µs per POST on the client
// side alone; a delivery adds its signature, its row, its attempt and their commit. Beside it, in
// the same rounds, the delivery floor (delivery-floor-server.js: the deposit, its event and its
// deliveries stored, each signed, sent with undici and its answer recorded, nothing else), for
// information: what any server storing and sending a delivery the way the sandbox does spends here.
const TARGET = throughputTarget({ ratio: 0.5, cpuUs: 200 });
const TARGET_P50_MS = 5;

function receiver() {
  const arrivals = new Map();
  let count = 0;
  let last = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      count++;
      last = now;
      if (!req.url.includes('bare=')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (!arrivals.has(body.data.txid)) arrivals.set(body.data.txid, now);
      }
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
    reset() {
      count = 0;
    },
    listen: () =>
      new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port))),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function waitUntil(predicate, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 2));
  }
  return true;
}

/** The bare loop's POSTs/s and CPU per POST (µs): `count` POSTs, `concurrency` in flight, a body like a delivery's. */
function bareLoop(url, count, concurrency, body) {
  const child = track(fork(BARE_LOOP, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('bare webhook loop did not finish in 30 s'));
    }, 30_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      child.disconnect();
      if (message.error) reject(new Error(`bare webhook loop: ${message.error}`));
      else resolve({ rate: count / (message.ms / 1000), cpuUs: message.cpu_us / count });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bare webhook loop exited (${code}) without a result`));
    });
    child.send({ url, count, concurrency, body });
  });
}

export default {
  name: 'webhooks',
  async run({ config, log }) {
    const { endpoints, deposits, concurrency, latencySamples } = config.webhooks;
    const inbox = receiver();
    const port = await inbox.listen();
    const url = `http://127.0.0.1:${port}/hook`;
    const sandbox = await startSandbox({ dbPath: join(tempDir(), 'bench-webhooks.db') });
    let floor;
    try {
      if (config.floors)
        floor = await startDeliveryFloor(Array.from({ length: endpoints }, (_, i) => `${url}?e=${i}`));
      const base = sandbox.urls.test;
      await limitsOff(base);
      const deposit = (merchant_id, txid) =>
        api(base, 'POST', '/sandbox/deposits', {
          body: { merchant_id, chain: 'tron', currency: 'USDT', amount: 1_000_000, txid },
        });
      const { merchant: busy } = await api(base, 'POST', '/sandbox/merchants', { body: { name: 'Busy' } });
      for (let i = 0; i < endpoints; i++) {
        await api(base, 'POST', `/sandbox/merchants/${busy.id}/webhook-endpoints`, {
          body: { url: `${url}?e=${i}`, events: ['deposit.received'] },
        });
      }
      const expected = endpoints * deposits;
      // A body the size of a deposit.received delivery.
      const sampleBody = JSON.stringify({
        id: '00000000-0000-4000-8000-000000000000',
        type: 'deposit.received',
        created_at: new Date().toISOString(),
        data: {
          id: '{{i}}',
          merchant_id: busy.id,
          chain: 'tron',
          currency: 'USDT',
          amount: 1_000_000,
          txid: 'bare-{{i}}',
        },
      });
      // In flight at once, as the sandbox has: every endpoint of every deposit call in flight.
      const bareConcurrency = endpoints * concurrency;
      const bareCpu = [];
      const bare = async () => {
        inbox.reset();
        const { rate, cpuUs } = await bareLoop(url, expected, bareConcurrency, sampleBody);
        log(`    bare undici loop ${fmt(rate)} POSTs/s, ${fmt(cpuUs)} µs CPU/POST`);
        bareCpu.push(cpuUs);
        return rate;
      };
      /** Deposits from `concurrency` callers until `deposits`, then waits for every delivery. */
      const depositRun = async (name, pid, depositOne) => {
        inbox.reset();
        const started = performance.now();
        const cpuBefore = cpuSeconds(pid);
        let next = 0;
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (next < deposits) await depositOne(next++);
          }),
        );
        const complete = await waitUntil(() => inbox.count >= expected, 30_000);
        const rate = complete ? inbox.count / ((inbox.last - started) / 1000) : 0;
        const cpuAfter = cpuSeconds(pid);
        const cpuUs =
          cpuBefore === null || cpuAfter === null || inbox.count === 0
            ? null
            : ((cpuAfter - cpuBefore) * 1e6) / inbox.count;
        log(`    ${name} ${fmt(rate)} deliveries/s, ${fmt(cpuUs)} µs CPU/delivery`);
        return { rate, complete, delivered: inbox.count, cpu_us_per_delivery: cpuUs };
      };
      const sandboxRun = (round) =>
        depositRun('sandbox', sandbox.child.pid, (n) => deposit(busy.id, `tp-${round}-${n}`));
      const floorRun = (round) =>
        depositRun('floor', floor.child.pid, (n) => floor.deposit(`fl-${round}-${n}`));

      // Warm-up, not measured (see the http section): one whole round of each, first.
      if (config.warmupSeconds > 0) {
        await sandboxRun('warm-up');
        if (floor) await floorRun('warm-up');
        await bare();
      }
      const bareRates = [await bare()];
      const runs = [];
      const ratios = [];
      const floorRuns = [];
      const floorRatios = [];
      for (let round = 0; round < config.rounds; round++) {
        runs.push(await sandboxRun(round));
        if (floor) floorRuns.push(await floorRun(round));
        bareRates.push(await bare());
        const reference = (bareRates[round] + bareRates[round + 1]) / 2;
        ratios.push(runs[round].rate / reference);
        if (floor) floorRatios.push(floorRuns[round].rate / reference);
      }
      const failed = await api(
        base,
        'GET',
        `/sandbox/deliveries?merchant_id=${busy.id}&status=failed&limit=1`,
      );
      const clean = runs.every((r) => r.complete) && failed.length === 0;

      // Latency: one subscriber, one call at a time, simulation call → receipt.
      const { merchant: calm } = await api(base, 'POST', '/sandbox/merchants', { body: { name: 'Calm' } });
      await api(base, 'POST', `/sandbox/merchants/${calm.id}/webhook-endpoints`, {
        body: { url, events: ['deposit.received'] },
      });
      const latencies = [];
      for (let i = 0; i < latencySamples; i++) {
        const txid = `lat-${i}`;
        const sent = performance.now();
        await deposit(calm.id, txid);
        await waitUntil(() => inbox.arrivals.has(txid), 5_000);
        latencies.push(inbox.arrivals.get(txid) - sent);
      }
      const p50 = percentile(latencies, 50);
      const p99 = percentile(latencies, 99);
      const ratio = ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 2)];
      const rate = runs.map((r) => r.rate).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
      const bareRate = bareRates.sort((a, b) => a - b)[Math.floor(bareRates.length / 2)];
      const middle = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
      const cpuOf = (measured) =>
        measured.some((r) => r.cpu_us_per_delivery === null)
          ? null
          : middle(measured.map((r) => r.cpu_us_per_delivery));
      const cpu = cpuOf(runs);
      const floorCpu = floor ? cpuOf(floorRuns) : null;
      // Only where the floor ran (not in --quick).
      const floorFigures = floor
        ? [
            figure({
              name: 'webhook floor: the same rows, signed and sent (information)',
              measured: floorRuns.every((r) => r.complete)
                ? `${fmt(middle(floorRuns.map((r) => r.rate)))} deliveries/s, ${fmt(floorCpu)} µs CPU/delivery, ${fmt(middle(floorRatios), 2)} of bare`
                : `incomplete: ${floorRuns.map((r) => `${r.delivered}/${expected}`).join(', ')} delivered`,
              baseline: `the sandbox's deliveries: ${fmt(cpu)} µs CPU/delivery`,
              ratio: cpu !== null && floorCpu !== null ? cpu / floorCpu : null,
              data: { cpu_us_per_delivery: floorCpu, ratios: floorRatios, runs: floorRuns },
            }),
          ]
        : [];
      return {
        figures: [
          figure({
            name: `webhook deliveries (${endpoints} endpoints × ${deposits} events)`,
            measured: clean
              ? `${fmt(rate)} deliveries/s, ${fmt(cpu)} µs CPU/delivery`
              : `incomplete: ${runs.map((r) => `${r.delivered}/${expected}`).join(', ')} delivered, ${failed.length ? 'some failed' : 'none failed'}`,
            baseline: `bare undici POST loop: ${fmt(bareRate)} POSTs/s, ${fmt(middle(bareCpu))} µs CPU/POST (${bareConcurrency} in flight)`,
            ratio: clean ? ratio : 0,
            target: TARGET.text,
            pass: clean && TARGET.pass(ratio, cpu),
            data: { rate, cpu_us_per_delivery: cpu, bareRates, bareCpu, ratios, runs },
          }),
          ...floorFigures,
          figure({
            name: 'webhook latency (call → receipt)',
            measured: `p50 ${fmt(p50, 2)} ms, p99 ${fmt(p99, 2)} ms (${latencies.length} calls)`,
            target: `p50 <= ${TARGET_P50_MS} ms`,
            pass: p50 <= TARGET_P50_MS,
            data: { p50_ms: p50, p99_ms: p99 },
          }),
        ],
      };
    } finally {
      await stop(sandbox.child, 10_000);
      if (floor) await stop(floor.child);
      await inbox.close();
    }
  },
};
