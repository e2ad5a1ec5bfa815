// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario references (${co1.id}) are literal text here
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseScenario } from '../../../server/scenarios/parse.js';
import { ensureBuilt, ROOT, runCli } from '../../helpers/cli.js';
import {
  json,
  recordAgainstSandbox,
  spawnRecord,
  startRecord,
  upstreamMerchant,
  upstreamTime,
} from '../../helpers/record.js';
import { tempDir, testSandbox } from '../../helpers/sandbox.js';

/**
 * `svc-sandbox record`'s edges through the built CLI: what is never written (keys, signing
 * secrets, card numbers), notes (stdin and HTTP) and how inference leaves alone what a note
 * played, and the error paths (a bad --upstream, a port in use, the service down, the developer's
 * webhook endpoint down, a path outside /v1).
 */
beforeAll(() => ensureBuilt([join(ROOT, 'dist/server/cli/record.js')]), 180_000);

type Json = Record<string, unknown>;

const freePort = async (): Promise<{ port: number; close: () => void }> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, close: () => server.close() };
};

describe('svc-sandbox record: never written', () => {
  it('leaves API keys, signing secrets and card numbers out of the file, wherever they appear', async () => {
    const { upstream, receiver, dir, rec, acme } = await recordAgainstSandbox();
    const pan = '4111 1111 1111 1111';
    const made = await json(
      `${rec.url}/v1/checkouts`,
      'POST',
      {
        title: `Order for ${acme.key}`,
        description: `card ${pan} (${pan.replaceAll(' ', '')}), secret ${acme.secret}, Bearer ${acme.key}`,
        reference: acme.secret,
        amount: 1_000_000,
        expires_at: await upstreamTime(upstream, 3600_000),
      },
      { ...acme.auth, 'x-api-key': acme.key },
    );
    expect(made.status).toBe(200);
    await receiver.count(1);
    // A key in a query: the service refuses the parameter, and the step is kept (a 400), redacted.
    await json(`${rec.url}/v1/checkouts?api_key=${acme.key}`, 'GET', undefined, acme.auth);
    expect(await rec.stop()).toBe(0);
    const text = readFileSync(join(dir, 's.yaml'), 'utf8');
    expect(parseScenario(text).ok).toBe(true);
    for (const secret of [acme.key, acme.secret!, pan, pan.replaceAll(' ', ''), 'svcb_', 'whsec_'])
      expect(text, secret).not.toContain(secret);
    expect(text).toContain('<redacted>');
    // What is not secret stays: the rest of the text, and the step itself.
    expect(text).toContain('Order for <redacted>');
    expect(text).toContain('POST /v1/checkouts');
  }, 60_000);
});

describe('svc-sandbox record: notes', () => {
  it('writes a note as the step at that point; inference then plays only what the notes did not', async () => {
    const { upstream, receiver, dir, rec, acme } = await recordAgainstSandbox();
    const note = (line: string) => json(`${rec.url}/__record/note`, 'POST', { line });
    const co = await json(
      `${rec.url}/v1/checkouts`,
      'POST',
      { title: 'Order', amount: 10_000_000, expires_at: await upstreamTime(upstream, 3600_000) },
      acme.auth,
    );
    const id = (co.body as Json).id as string;
    await receiver.count(1);

    // 4 USDC arrive, and the user says so; then 6 more that only the webhook shows.
    const paid = await note('pay co1 4000000');
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      steps: [{ control: 'POST /sandbox/checkouts/${co1.id}/payments', body: { amount: 4_000_000 } }],
    });
    await json(`${upstream}/sandbox/checkouts/${id}/payments`, 'POST', { amount: 4_000_000 });
    await json(`${upstream}/sandbox/checkouts/${id}/payments`, 'POST', { amount: 6_000_000 });
    await receiver.waitFor((r) => r.some((d) => d.body.event === 'checkout.paid'));
    await rec.waitFor(/checkout\.paid webhook/);
    // Read before time is said to pass: the service had not settled it yet.
    expect(
      ((await json(`${rec.url}/v1/checkouts/${id}`, 'GET', undefined, acme.auth)).body as Json).status,
    ).toBe('paid');
    // Notes on stdin, and one of each kind over HTTP.
    rec.child.stdin!.write('advance 2m\nhelp\nbogus\n');
    await rec.waitFor(/\+ clock \{"advance":"2m"\}/);
    await rec.waitFor(/pay <checkout> <amount>/);
    expect(
      (
        await note(
          `control POST /sandbox/merchants/${acme.id}/credit {"currency": "USDC", "amount": 5000000}`,
        )
      ).status,
    ).toBe(200);
    const bad = [
      await note('pay co9 5'),
      await note('pay co1 -5'),
      await note('advance soon'),
      await note('control POST /sandbox/clock/advance {"seconds":'),
      await note('control POST /sandbox/checkouts/${nope.id}/payments'),
      await note('refund co1'),
    ];
    expect(bad.map((b) => [b.status, (b.body as Json).error])).toEqual([
      [400, expect.stringContaining('no checkout co9')],
      [400, expect.stringContaining('positive whole number')],
      [400, expect.stringContaining('a duration like')],
      [400, expect.stringContaining('not JSON')],
      [400, expect.stringContaining('${nope')],
      [400, expect.stringContaining('unknown note refund')],
    ]);
    expect((await json(`${rec.url}/__record/note`, 'POST', { text: 'x' })).status).toBe(400);
    expect(await rec.stop()).toBe(0);
    expect(rec.stderr()).toContain('unknown note bogus');

    const text = readFileSync(join(dir, 's.yaml'), 'utf8');
    const steps = (parse(text) as { steps: Json[] }).steps;
    const inferred = steps
      .filter((s) => s.inferred !== undefined)
      .map((s) => [s.control ?? s.clock, s.body, s.inferred]);
    expect(inferred).toEqual([
      ['POST /sandbox/checkouts/${co1.id}/payments', { amount: 4_000_000 }, 'a note: pay co1 4000000'],
      // the webhook said 10 were paid; the note had played 4
      [
        'POST /sandbox/checkouts/${co1.id}/payments',
        { amount: 6_000_000 },
        expect.stringContaining('paid_amount 4000000 → 10000000'),
      ],
      [{ advance: '2m' }, undefined, 'a note: advance 2m'],
      [
        'POST /sandbox/merchants/${merchant.id}/credit',
        { currency: 'USDC', amount: 5_000_000 },
        expect.stringContaining('a note: control'),
      ],
    ]);
    const run = await runCli(['run', 's.yaml'], { cwd: dir, timeoutMs: 60_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
  }, 60_000);
});

describe('svc-sandbox record: errors', () => {
  it('refuses a bad --upstream or a port in use, and says why', async () => {
    const dir = tempDir();
    const bad = spawnRecord(['--upstream', 'ftp://example.com', '--port', '0', '--out', 's.yaml'], dir);
    expect(await new Promise((resolve) => bad.child.once('close', resolve))).toBe(2);
    expect(bad.stderr()).toContain('--upstream must be an http(s) URL, got ftp://example.com');
    const missing = spawnRecord(['--port', '0', '--out', 's.yaml'], dir);
    expect(await new Promise((resolve) => missing.child.once('close', resolve))).toBe(2);
    expect(missing.stderr()).toContain('--upstream <url> is required');
    const taken = await freePort();
    try {
      const busy = spawnRecord(
        ['--upstream', 'http://127.0.0.1:9', '--port', String(taken.port), '--out', 's.yaml'],
        dir,
      );
      expect(await new Promise((resolve) => busy.child.once('close', resolve))).toBe(1);
      expect(busy.stderr()).toContain(`cannot listen on 127.0.0.1:${taken.port}: the port is in use`);
    } finally {
      taken.close();
    }
  }, 30_000);

  it('answers 502 with {error} when the service is down (nothing recorded), 404 outside /v1', async () => {
    const down = await freePort();
    down.close();
    const dir = tempDir();
    const rec = await startRecord(['--upstream', `http://127.0.0.1:${down.port}`, '--out', 's.yaml'], dir);
    const answer = await json(`${rec.url}/v1/checkouts`, 'GET', undefined, {
      authorization: 'Bearer svcb_x',
    });
    expect(answer.status).toBe(502);
    expect((answer.body as Json).error).toMatch(
      /the service at http:\/\/127\.0\.0\.1:\d+ did not answer: ECONNREFUSED/,
    );
    const outside = await json(`${rec.url}/sandbox/clock`);
    expect(outside.status).toBe(404);
    expect((outside.body as Json).error).toContain('forwards /v1 only');
    expect((await json(`${rec.url}/webhooks`, 'POST', {})).status).toBe(404);
    expect(await rec.stop()).toBe(0);
    expect(rec.stderr()).toContain('nothing recorded');
    expect(existsSync(join(dir, 's.yaml'))).toBe(false);
  }, 30_000);

  it('records a webhook when the developer endpoint is down, and answers the service 502', async () => {
    const upstream = (await (await testSandbox()).listen()).test;
    const gone = await freePort();
    gone.close();
    const dir = tempDir();
    const rec = await startRecord(
      ['--upstream', upstream, '--out', 's.yaml', '--webhooks-to', `http://127.0.0.1:${gone.port}/hooks`],
      dir,
    );
    const acme = await upstreamMerchant(upstream);
    await json(
      `${rec.url}/v1/checkouts`,
      'POST',
      { title: 'Order', amount: 1_000_000, expires_at: await upstreamTime(upstream, 3600_000) },
      acme.auth,
    );
    const delivery = await json(`${rec.url}/webhooks`, 'POST', {
      id: '7f1d1a6e-3d52-4c1b-9f0e-2a1b3c4d5e6f',
      event: 'checkout.created',
      data: { id: 'x' },
    });
    expect(delivery.status).toBe(502);
    expect((delivery.body as Json).error).toContain(`http://127.0.0.1:${gone.port}/hooks did not answer`);
    // The same delivery again (the service's retry) is not recorded twice.
    expect(
      (
        await json(`${rec.url}/webhooks`, 'POST', {
          id: '7f1d1a6e-3d52-4c1b-9f0e-2a1b3c4d5e6f',
          event: 'checkout.created',
          data: { id: 'x' },
        })
      ).status,
    ).toBe(502);
    expect(await rec.stop()).toBe(0);
    const steps = (parse(readFileSync(join(dir, 's.yaml'), 'utf8')) as { steps: Json[] }).steps;
    expect(steps.at(-1)).toMatchObject({
      call: 'POST /v1/checkouts',
      recorded: { webhooks: [{ type: 'checkout.created', data: { id: 'x' } }] },
    });
  }, 30_000);
});
