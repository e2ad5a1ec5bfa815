#!/usr/bin/env node
// `node scripts/smoke.js` (after `npm run build:server`): the short check .ci/run makes on the oldest
// supported Node. Starts the built CLI (`svc-sandbox serve`, free ports, a database in a temporary
// folder), checks /sandbox/health, then one checkout paid with its signed `checkout.paid` webhook
// delivered to a receiver here. Exits 0 when all of it worked, 1 otherwise; stops what it started.
import { spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const startedAt = performance.now();
const scratch = mkdtempSync(join(tmpdir(), 'svc-sandbox-smoke-'));
let server;
let receiver;

const fail = (text) => {
  throw new Error(text);
};

/** The CLI's ready line: `svc-sandbox ready test=URL production=URL dashboard=URL`. */
function serve() {
  const child = spawn(
    process.execPath,
    [
      join(root, 'bin/svc-sandbox.js'),
      'serve',
      '--port',
      '0',
      '--prod-port',
      '0',
      '--db',
      join(scratch, 'smoke.db'),
    ],
    { cwd: scratch, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve: no ready line within 60 s\n${output}`)), 60_000);
    const read = (chunk) => {
      output += chunk;
      const ready = /svc-sandbox ready test=(\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve({ child, base: ready[1] });
      }
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', read);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${signal ?? code}) before it was ready\n${output}`));
    });
  });
}

function startReceiver() {
  const received = [];
  const http = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  return new Promise((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve({ http, received, port: http.address().port }));
  });
}

async function call(base, method, path, { body, key } = {}) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (response.status < 200 || response.status > 299) fail(`${method} ${path}: ${response.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

async function waitFor(what, ms, check) {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    const value = check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return fail(`${what}: not within ${ms / 1000} s`);
}

async function main() {
  console.log(`smoke: node ${process.version}`);
  receiver = await startReceiver();
  server = await serve();
  const { base } = server;

  const health = await call(base, 'GET', '/sandbox/health');
  console.log(`smoke: serve ready at ${base}; /sandbox/health ${JSON.stringify(health).slice(0, 80)}`);

  const { merchant, api_key: apiKey } = await call(base, 'POST', '/sandbox/merchants', {
    body: { name: 'Smoke Co' },
  });
  const endpoint = await call(base, 'POST', `/sandbox/merchants/${merchant.id}/webhook-endpoints`, {
    body: { url: `http://127.0.0.1:${receiver.port}/hooks`, events: ['checkout.paid'] },
  });
  const { now } = await call(base, 'GET', '/sandbox/clock');
  const checkout = await call(base, 'POST', '/v1/checkouts', {
    key: apiKey.key,
    body: {
      title: 'Smoke order',
      amount: 25_000_000,
      expires_at: new Date(Date.parse(now) + 3600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    },
  });
  await call(base, 'POST', `/sandbox/checkouts/${checkout.id}/payments`, { body: {} });
  const paid = await call(base, 'GET', `/v1/checkouts/${checkout.id}`, { key: apiKey.key });
  if (paid.status !== 'paid') fail(`checkout ${checkout.id} is ${paid.status}, not paid`);

  const delivery = await waitFor('the checkout.paid webhook', 20_000, () =>
    receiver.received.find((r) => r.headers['x-svc-event'] === 'checkout.paid'),
  );
  const expected = `sha256=${createHmac('sha256', endpoint.secret).update(delivery.raw).digest('hex')}`;
  const signature = String(delivery.headers['x-svc-signature'] ?? '');
  if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature), Buffer.from(expected)))
    fail(`the webhook signature does not verify: ${signature}`);
  const event = JSON.parse(delivery.raw.toString('utf8'));
  if (event.data?.id !== checkout.id) fail(`the webhook is about ${event.data?.id}, not ${checkout.id}`);
  console.log(`smoke: checkout ${checkout.id} paid; checkout.paid webhook received, signature verified`);
}

async function stop() {
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  }
  receiver?.http.close();
  rmSync(scratch, { recursive: true, force: true });
}

try {
  await main();
  await stop();
  console.log(`smoke: passed in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
} catch (error) {
  await stop();
  console.error(`smoke: FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
