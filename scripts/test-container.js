#!/usr/bin/env node
// The container image's test, run by scripts/test-container.sh (npm run test:container) once podman
// and the base images are in place. Builds the Dockerfile as svc-sandbox:local, then drives the
// image from this machine as a CI job would: published ports, a named volume, a control token, a
// webhook receiver here on the host. Everything it starts it removes, also when a step fails, and
// it removes what an interrupted earlier run left behind before starting (same names).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.env.CONTAINERS_CONF ??= join(root, 'scripts/container/containers.conf');

const IMAGE = 'svc-sandbox:local';
const CONTAINER = 'svc-sandbox-test';
const VOLUME = 'svc-sandbox-test-data';
const MAX_IMAGE_MB = 200;
// Host ports other than the image's own: the public URLs must be what makes the links right.
const TEST_PORT = 14010;
const PROD_PORT = 14011;
const RECEIVER_PORT = 14019;
// The host as the container sees it: podman's name for the bridge's gateway (Docker's is
// host.docker.internal, with --add-host=host.docker.internal:host-gateway on Linux).
const HOST_FROM_CONTAINER = 'host.containers.internal';
const TOKEN = randomBytes(18).toString('base64url');
const BASE = `http://localhost:${TEST_PORT}`;

const startedAt = performance.now();
const step = (text) => console.log(`== ${text}`);
const fail = (text) => {
  throw new Error(text);
};

function podman(args, { allowFail = false, quiet = false } = {}) {
  const result = spawnSync('podman', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0 && !allowFail)
    fail(`podman ${args.join(' ')} failed (${result.status}):\n${result.stderr}${result.stdout}`);
  if (!quiet && result.status !== 0 && allowFail && result.stderr.trim() !== '')
    console.log(`   (podman ${args[0]}: ${result.stderr.trim().split('\n')[0]})`);
  return result.stdout.trim();
}

function cleanUp() {
  podman(['rm', '--force', '--volumes', '--time', '5', CONTAINER], { allowFail: true, quiet: true });
  podman(['volume', 'rm', '--force', VOLUME], { allowFail: true, quiet: true });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` returns a value (not undefined), at most `ms`. */
async function waitFor(what, ms, check) {
  const deadline = Date.now() + ms;
  let last;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await sleep(200);
  }
  fail(`${what}: not within ${ms / 1000} s${last ? ` (${last.message})` : ''}`);
}

async function call(method, path, { body, token, key, base = BASE } = {}) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token !== undefined) headers['x-svc-control-token'] = token;
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

async function ok(method, path, options) {
  const answer = await call(method, path, options);
  if (answer.status < 200 || answer.status > 299)
    fail(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The container's output, stdout and stderr (podman logs replays each on its own stream). */
function containerLogs() {
  const result = spawnSync('podman', ['logs', CONTAINER], { encoding: 'utf8' });
  return `${result.stdout}${result.stderr}`;
}

function health() {
  return podman(['inspect', '--format', '{{.State.Health.Status}}', CONTAINER]);
}

/**
 * Healthy per the image's own HEALTHCHECK. podman schedules health checks with systemd timers; on a
 * machine without systemd (this one) nothing runs them, so the test runs the image's check itself
 * (`podman healthcheck run`, which records the result like a scheduled run) until it reports
 * healthy. Docker and GitHub Actions run the same HEALTHCHECK on its interval.
 */
async function waitHealthy(ms) {
  return waitFor('the container to turn healthy', ms, () => {
    podman(['healthcheck', 'run', CONTAINER], { allowFail: true, quiet: true });
    return health() === 'healthy' ? true : undefined;
  });
}

function runContainer() {
  return podman([
    'run',
    '--detach',
    '--name',
    CONTAINER,
    '--publish',
    `127.0.0.1:${TEST_PORT}:4010`,
    '--publish',
    `127.0.0.1:${PROD_PORT}:4011`,
    '--volume',
    `${VOLUME}:/data`,
    '--env',
    `SVC_SANDBOX_PUBLIC_URL=${BASE}`,
    '--env',
    `SVC_SANDBOX_PUBLIC_PROD_URL=http://localhost:${PROD_PORT}`,
    '--env',
    `SVC_SANDBOX_CONTROL_TOKEN=${TOKEN}`,
    IMAGE,
  ]);
}

/** Time from `podman run` to the first answer of /sandbox/health through the published port. */
async function startAndTime() {
  const t0 = performance.now();
  runContainer();
  const running = performance.now() - t0;
  await waitFor('the sandbox to answer on the published port', 60_000, async () => {
    const answer = await call('GET', '/sandbox/health');
    return answer.status === 200 ? true : undefined;
  });
  return { total: performance.now() - t0, running };
}

/** A webhook receiver on the host: keeps every request with its raw body. */
function startReceiver() {
  const received = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // All interfaces: the container reaches it over podman's bridge, not the host's loopback.
    server.listen(RECEIVER_PORT, '0.0.0.0', () => resolve({ server, received }));
  });
}

async function main() {
  const results = [];
  cleanUp();

  step(`podman build -t ${IMAGE}`);
  const ca = process.env.NODE_EXTRA_CA_CERTS ?? '/etc/ssl/certs/ca-certificates.crt';
  const buildArgs = [
    'build',
    // HEALTHCHECK is a Docker-format field: podman's default OCI format drops it.
    '--format',
    'docker',
    // The FROM images are the local stand-ins: never ask a registry.
    '--pull=never',
    // npm and apt-get inside the build reach the network as this machine does.
    '--network',
    'host',
    '--tag',
    IMAGE,
  ];
  // This machine's network intercepts TLS with its own CA: npm in the build must trust it too. The
  // bundle is mounted into every RUN step and named by the Dockerfile's NODE_EXTRA_CA_CERTS build
  // argument; nothing of it stays in the image.
  if (existsSync(ca))
    buildArgs.push(
      '--volume',
      `${ca}:/etc/ssl/build-ca.crt:ro`,
      '--build-arg',
      'NODE_EXTRA_CA_CERTS=/etc/ssl/build-ca.crt',
    );
  const previous = podman(['image', 'inspect', '--format', '{{.Id}}', IMAGE], {
    allowFail: true,
    quiet: true,
  });
  const buildStart = performance.now();
  execFileSync('podman', [...buildArgs, root], { stdio: 'inherit' });
  // The image this build replaced, now untagged (the build stage's cached layers stay: they make
  // the next build fast; `podman image prune` frees them).
  const built = podman(['image', 'inspect', '--format', '{{.Id}}', IMAGE]);
  if (previous !== '' && previous !== built) podman(['rmi', previous], { allowFail: true, quiet: true });
  const buildSeconds = (performance.now() - buildStart) / 1000;
  const bytes = Number(podman(['image', 'inspect', '--format', '{{.Size}}', IMAGE]));
  const mb = bytes / 1e6;
  console.log(`image ${IMAGE}: ${mb.toFixed(1)} MB (build ${buildSeconds.toFixed(0)} s)`);
  if (mb > MAX_IMAGE_MB) fail(`the image is ${mb.toFixed(1)} MB, over ${MAX_IMAGE_MB} MB`);
  results.push(`image ${mb.toFixed(1)} MB`);
  const [inspected] = JSON.parse(podman(['image', 'inspect', IMAGE]));
  const config = inspected.Config ?? {};
  // podman shows a Docker-format image's HEALTHCHECK beside the OCI config, not in it.
  const healthcheck = inspected.Healthcheck ?? config.Healthcheck;
  if (!healthcheck?.Test?.length) fail('the image has no HEALTHCHECK');
  if (!['1000:1000', '1000'].includes(config.User)) fail(`the image runs as ${config.User || 'root'}`);
  for (const port of ['4010/tcp', '4011/tcp'])
    if (!(port in (config.ExposedPorts ?? {}))) fail(`the image does not expose ${port}`);
  if (!('/data' in (config.Volumes ?? {}))) fail('the image declares no /data volume');
  const nodeVersion = podman(['run', '--rm', '--entrypoint', 'node', IMAGE, '--version']);
  if (!nodeVersion.startsWith('v24.')) fail(`the image runs Node ${nodeVersion}, not 24`);
  results.push(`node ${nodeVersion}`);

  const { server, received } = await startReceiver();
  try {
    step(`podman run ${IMAGE} (ports ${TEST_PORT}, ${PROD_PORT}; volume ${VOLUME}; a control token)`);
    const start = await startAndTime();
    console.log(
      `first answer ${start.total.toFixed(0)} ms after podman run (the container was running after ${start.running.toFixed(0)} ms)`,
    );
    results.push(`start ${start.total.toFixed(0)} ms`);
    const logs = containerLogs();
    if (!logs.includes(`svc-sandbox ready test=${BASE} production=http://localhost:${PROD_PORT}`))
      fail(`the ready line does not name the public URLs:\n${logs}`);
    if (!/remote control is on .*control token/.test(logs))
      fail(`the log does not announce remote control:\n${logs}`);
    const uid = podman(['exec', CONTAINER, 'id', '-u']);
    if (uid === '0') fail('the sandbox runs as root in the container');

    step('healthcheck');
    await waitHealthy(30_000);
    console.log(`health: ${health()}`);

    step('the control token');
    const refused = await call('GET', '/sandbox/clock');
    if (refused.status !== 401) fail(`a control call without the token: ${refused.status}, expected 401`);
    const wrong = await call('GET', '/sandbox/clock', { token: `${TOKEN}x` });
    if (wrong.status !== 401) fail(`a control call with a wrong token: ${wrong.status}, expected 401`);
    await ok('GET', '/sandbox/clock', { token: TOKEN });
    const open = await call('GET', '/sandbox/health');
    if (open.status !== 200 || open.body.urls.test !== BASE) fail(`/sandbox/health: ${JSON.stringify(open)}`);
    console.log('without the token: 401; with it: 200; /sandbox/health open, naming the public URL');

    step('a merchant, a webhook endpoint on this host, a checkout, a simulated payment');
    const { merchant, api_key: apiKey } = await ok('POST', '/sandbox/merchants', {
      token: TOKEN,
      body: { name: 'Container Co' },
    });
    const hookUrl = `http://${HOST_FROM_CONTAINER}:${RECEIVER_PORT}/hooks`;
    const endpoint = await ok('POST', `/sandbox/merchants/${merchant.id}/webhook-endpoints`, {
      token: TOKEN,
      body: { url: hookUrl, events: ['checkout.paid'] },
    });
    const { now } = await ok('GET', '/sandbox/clock', { token: TOKEN });
    const checkout = await ok('POST', '/v1/checkouts', {
      key: apiKey.key,
      body: {
        title: 'Order 1',
        amount: 25_000_000,
        expires_at: new Date(Date.parse(now) + 3600_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      },
    });
    if (!checkout.hosted_url.startsWith(`${BASE}/pay/`))
      fail(`hosted_url ${checkout.hosted_url} does not name the public URL`);
    const page = await fetch(checkout.hosted_url, { signal: AbortSignal.timeout(10_000) });
    if (page.status !== 200) fail(`the hosted page ${checkout.hosted_url}: ${page.status}`);
    await ok('POST', `/sandbox/checkouts/${checkout.id}/payments`, { token: TOKEN, body: {} });
    const delivery = await waitFor('the checkout.paid webhook on the host', 20_000, () =>
      received.find((r) => r.headers['x-svc-event'] === 'checkout.paid'),
    );
    const expected = `sha256=${createHmac('sha256', endpoint.secret).update(delivery.raw).digest('hex')}`;
    const signature = String(delivery.headers['x-svc-signature'] ?? '');
    if (
      signature.length !== expected.length ||
      !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
    )
      fail(`the webhook signature does not verify: ${signature}`);
    const event = JSON.parse(delivery.raw.toString('utf8'));
    if (event.data?.id !== checkout.id) fail(`the webhook is about ${event.data?.id}, not ${checkout.id}`);
    console.log(
      `checkout ${checkout.id} paid; webhook checkout.paid received at ${hookUrl}, signature verified`,
    );

    step('restart: the data is still there');
    podman(['restart', '--time', '10', CONTAINER]);
    await waitFor('the sandbox to answer after the restart', 60_000, async () =>
      (await call('GET', '/sandbox/health')).status === 200 ? true : undefined,
    );
    const after = await ok('GET', `/v1/checkouts/${checkout.id}`, { key: apiKey.key });
    if (after.status !== 'paid' && after.status !== 'completed')
      fail(`after the restart the checkout is ${after.status}`);
    await waitHealthy(30_000);
    console.log(`after podman restart: checkout ${after.status}, API key valid, healthy`);

    step('a new container on the same volume: the data is still there');
    podman(['rm', '--force', '--time', '10', CONTAINER]);
    await startAndTime();
    const merchants = await ok('GET', '/sandbox/merchants', { token: TOKEN });
    const list = Array.isArray(merchants) ? merchants : merchants.data;
    if (!list?.some((m) => m.id === merchant.id))
      fail('the merchant is gone in a new container on the volume');
    await ok('GET', `/v1/checkouts/${checkout.id}`, { key: apiKey.key });
    console.log('a new container on the volume has the merchant and the checkout');

    step('stop: SIGTERM shuts down cleanly');
    podman(['stop', '--time', '10', CONTAINER]);
    const exit = podman(['inspect', '--format', '{{.State.ExitCode}}', CONTAINER]);
    if (exit !== '0') fail(`the sandbox exited with ${exit} on SIGTERM`);
    if (!containerLogs().includes('SIGTERM, shutting down')) fail('no shutdown line on SIGTERM');
  } finally {
    step('clean up');
    cleanUp();
    server.close();
  }
  console.log(
    `\ntest:container passed: ${results.join(', ')}; ${((performance.now() - startedAt) / 1000).toFixed(0)} s in all`,
  );
}

main().catch((error) => {
  console.error(`\ntest:container FAILED: ${error.message}`);
  cleanUp();
  process.exit(1);
});
