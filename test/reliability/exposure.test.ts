import { Agent, request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../server/sandbox.js';
import { listOperations, type Operation } from '../helpers/openapi.js';
import { createMerchant, testSandbox } from '../helpers/sandbox.js';
import { errorShapeProblem, fillWith, loadDocument, requestSchema, UNKNOWN_UUID } from './support.js';

/**
 * Who may reach the control API, over real HTTP. For every /sandbox operation of the
 * OpenAPI document: the Host allow-list (loopback names only, exactly), the Origin (none or the
 * request's own loopback origin; anything else, `null` included, is a 403 on every method, GET
 * too), Sec-Fetch-Site cross-site (403 on every method), and the TCP peer (a client on another
 * address of this machine's network is refused unless allowRemoteControl). "Allowed" means not
 * refused for one of these reasons: the route itself may still answer 404 or 422.
 */

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** One request with exactly the headers given (Host included), to `address:port`. */
function send(
  address: string,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: address,
        port,
        method,
        path,
        agent,
        setHost: false,
        headers: {
          ...headers,
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        if (String(res.headers['content-type']).startsWith('text/event-stream')) {
          // The event stream never ends: its status is the answer.
          res.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path}: no answer within 10 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** A 403 for exposure reasons (host, origin, cross-site, peer), not the route's own 403. */
function refusedForExposure(answer: Answer): boolean {
  if (answer.status !== 403) return false;
  try {
    const error = (JSON.parse(answer.body) as { error?: unknown }).error;
    return typeof error === 'string' && /host|origin|cross-site|this machine|loopback/i.test(error);
  } catch {
    return true;
  }
}

interface Variant {
  name: string;
  headers: (port: number) => Record<string, string>;
  allowed: boolean;
}

const VARIANTS: Variant[] = [
  { name: 'Host localhost:<port>', headers: (p) => ({ host: `localhost:${p}` }), allowed: true },
  { name: 'Host 127.0.0.1:<port>', headers: (p) => ({ host: `127.0.0.1:${p}` }), allowed: true },
  { name: 'Host [::1]:<port>', headers: (p) => ({ host: `[::1]:${p}` }), allowed: true },
  { name: 'Host evil.com', headers: () => ({ host: 'evil.com' }), allowed: false },
  { name: 'Host 127.0.0.1.evil.com', headers: () => ({ host: '127.0.0.1.evil.com' }), allowed: false },
  {
    name: 'Host localhost.evil.com:<port>',
    headers: (p) => ({ host: `localhost.evil.com:${p}` }),
    allowed: false,
  },
  { name: 'Host (empty)', headers: () => ({ host: '' }), allowed: false },
  {
    name: 'Origin same (localhost)',
    headers: (p) => ({ host: `localhost:${p}`, origin: `http://localhost:${p}` }),
    allowed: true,
  },
  {
    name: 'Origin same (127.0.0.1)',
    headers: (p) => ({ host: `127.0.0.1:${p}`, origin: `http://127.0.0.1:${p}` }),
    allowed: true,
  },
  {
    name: 'Origin same ([::1])',
    headers: (p) => ({ host: `[::1]:${p}`, origin: `http://[::1]:${p}` }),
    allowed: true,
  },
  {
    name: 'Origin http://evil.com',
    headers: (p) => ({ host: `localhost:${p}`, origin: 'http://evil.com' }),
    allowed: false,
  },
  { name: 'Origin null', headers: (p) => ({ host: `localhost:${p}`, origin: 'null' }), allowed: false },
  {
    name: 'Origin http://localhost:1 (other port)',
    headers: (p) => ({ host: `localhost:${p}`, origin: 'http://localhost:1' }),
    allowed: false,
  },
  {
    name: 'Sec-Fetch-Site cross-site',
    headers: (p) => ({ host: `localhost:${p}`, 'sec-fetch-site': 'cross-site' }),
    allowed: false,
  },
];

/** Path params: ids no resource has (and a valid inbox name), so an allowed call changes little. */
function urlOf(op: Operation): string {
  return fillWith(op.path, (param) =>
    param === 'name' ? 'exposure' : param === 'address' ? 'exposure-address' : UNKNOWN_UUID,
  );
}

function bodyOf(op: Operation): string | undefined {
  return requestSchema(op) === undefined ? undefined : '{}';
}

/** A non-loopback IPv4 address of this machine, if it has one. */
function outsideAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces()))
    for (const info of list ?? []) if (info.family === 'IPv4' && !info.internal) return info.address;
  return undefined;
}

describe('reliability: control-API exposure over real HTTP', () => {
  it('Host × Origin × Sec-Fetch-Site on every /sandbox route, and the peer address', async () => {
    const started = performance.now();
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const listeners = { test: urls.test, production: urls.production };
    const doc = await loadDocument(sandbox);
    // Reset last: it is a route like the others, but it wipes what the rest of the run may touch.
    const ops = listOperations(doc)
      .filter((op) => op.path.startsWith('/sandbox'))
      .sort((a, b) => Number(a.key === 'POST /sandbox/reset') - Number(b.key === 'POST /sandbox/reset'));
    expect(ops.length).toBeGreaterThan(60);

    const mismatches: string[] = [];
    let requests = 0;
    // Reset runs last on each listener (the sort above), so it comes between the two passes only.
    for (const [listener, url] of Object.entries(listeners))
      for (const op of ops) {
        for (const variant of VARIANTS) {
          requests++;
          const port = Number(new URL(url).port);
          const answer = await send(
            '127.0.0.1',
            port,
            op.method,
            urlOf(op),
            variant.headers(port),
            bodyOf(op),
          );
          const what = `${listener} ${op.key} [${variant.name}] → ${answer.status} ${answer.body.slice(0, 140)}`;
          if (variant.allowed) {
            if (refusedForExposure(answer)) mismatches.push(`${what}: expected allowed`);
            else if (answer.status >= 500) mismatches.push(`${what}: a 5xx`);
          } else if (answer.status !== 403) mismatches.push(`${what}: expected 403`);
          else {
            const shape = errorShapeProblem({
              statusCode: answer.status,
              headers: answer.headers,
              body: answer.body,
            });
            if (shape) mismatches.push(`${what}: ${shape}`);
          }
        }
      }

    // ---- the TCP peer: a client on another address of this machine ----
    const outside = outsideAddress();
    let peerNote: string;
    if (outside === undefined) {
      peerNote = 'peer check skipped: this machine has no non-loopback IPv4 address';
      console.log(`exposure: ${peerNote}`);
    } else {
      const peerCase = async (options: SandboxOptions, allowed: boolean) => {
        const open = await testSandbox({ host: '0.0.0.0', ...options });
        const live = await open.listen();
        for (const [listener, url] of Object.entries({ test: live.test, production: live.production }))
          for (const op of ops) {
            const livePort = Number(new URL(url).port);
            requests++;
            const answer = await send(
              outside,
              livePort,
              op.method,
              urlOf(op),
              { host: `localhost:${livePort}` },
              bodyOf(op),
            );
            const what = `${listener} ${op.key} [peer ${outside}${allowed ? ', allowRemoteControl' : ''}] → ${answer.status} ${answer.body.slice(0, 140)}`;
            if (allowed ? refusedForExposure(answer) : answer.status !== 403)
              mismatches.push(`${what}: expected ${allowed ? 'allowed' : '403'}`);
            else if (!allowed) {
              const shape = errorShapeProblem({
                statusCode: answer.status,
                headers: answer.headers,
                body: answer.body,
              });
              if (shape) mismatches.push(`${what}: ${shape}`);
            }
          }
        // /v1 is not peer-restricted: its API key protects it.
        const actor = await createMerchant(open);
        for (const url of [live.test, live.production]) {
          requests++;
          const livePort = Number(new URL(url).port);
          const v1 = await send(outside, livePort, 'GET', '/v1/checkouts', {
            host: `localhost:${livePort}`,
            ...actor.auth,
          });
          if (v1.status !== 200)
            mismatches.push(`${url} GET /v1/checkouts [peer ${outside}] → ${v1.status}: expected 200`);
        }
      };
      await peerCase({}, false);
      await peerCase({ allowRemoteControl: true }, true);
      peerNote = `peer ${outside} refused, allowed with allowRemoteControl`;
    }

    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `exposure: ${ops.length} routes × ${VARIANTS.length} variants, ${mismatches.length} mismatches (both listeners, ${requests} requests; ${peerNote}; ${seconds} s)`,
    );
    if (mismatches.length > 0) console.log(`exposure mismatches:\n  ${mismatches.slice(0, 60).join('\n  ')}`);
    agent.destroy();
    expect(mismatches).toEqual([]);
  }, 60_000);
});
