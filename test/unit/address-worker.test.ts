import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AddressFormat, isChecksumAddress, isValidAddress } from '../../server/addresses/formats.js';
import { AddressPrefetcher } from '../../server/addresses/prefetcher.js';
import { AddressSource } from '../../server/addresses/source.js';
import { createIds } from '../../server/ids.js';

// The worker's script as the builds make it (the test command builds before it runs the tests):
// the CLI's (tsc's output) and the desktop app's (electron-vite's second main entry).
const BUILT_WORKER = pathToFileURL(join(process.cwd(), 'dist/server/addresses/address-worker.js'));
const ELECTRON_WORKER = pathToFileURL(join(process.cwd(), 'out/main/address-worker.js'));
const CHAIN_OF: Record<AddressFormat, string> = { evm: 'polygon', tron: 'tron', bitcoin: 'bitcoin' };

const opened: AddressPrefetcher[] = [];
const prefetcher = (script: URL, capacity?: number, idleMs?: number) => {
  const p = new AddressPrefetcher(script, capacity, idleMs);
  opened.push(p);
  return p;
};
afterEach(async () => {
  for (const p of opened.splice(0)) await p.close();
});

describe('AddressPrefetcher (the built worker)', () => {
  it('answers nothing until the worker has delivered, then valid, distinct addresses of each format', async () => {
    const p = prefetcher(BUILT_WORKER, 64);
    for (const format of ['evm', 'tron', 'bitcoin'] as const) {
      expect(p.take(format)).toBeUndefined(); // first take starts the worker and asks; none ready yet
      await p.filled(format, 32);
      const taken = new Set<string>();
      for (let i = 0; i < 200; i++) {
        const address = p.take(format);
        if (address !== undefined) taken.add(address);
        expect(p.size(format)).toBeLessThanOrEqual(64);
        if (i % 20 === 0) await p.filled(format, 32);
      }
      expect(taken.size).toBeGreaterThanOrEqual(150);
      for (const address of taken) expect(isValidAddress(CHAIN_OF[format], address), address).toBe(true);
      if (format === 'evm') expect([...taken].every(isChecksumAddress)).toBe(true);
    }
    expect(p.available).toBe(true);
    expect(p.served).toBeGreaterThan(450);
  });

  it('the built worker is self-contained: copied where no node_modules is, it still answers', async () => {
    // The container image keeps only the packages the bundles load by name; a worker that loaded
    // one of its own (the address encoders) would fail there and leave every address to the server.
    const alone = join(mkdtempSync(join(tmpdir(), 'address-worker-')), 'address-worker.mjs');
    writeFileSync(alone, readFileSync(BUILT_WORKER));
    const p = prefetcher(pathToFileURL(alone), 8);
    for (const format of ['evm', 'tron', 'bitcoin'] as const) {
      p.take(format);
      await p.filled(format, 8);
      const address = p.take(format);
      expect(address !== undefined && isValidAddress(CHAIN_OF[format], address), address).toBe(true);
    }
    expect(p.available).toBe(true);
  });

  it('the desktop build ships the worker beside the module that starts it, and it answers', async () => {
    const starter = readdirSync(join(process.cwd(), 'out/main'))
      .filter((f) => f.endsWith('.js') && f !== 'address-worker.js')
      .find((f) =>
        readFileSync(join(process.cwd(), 'out/main', f), 'utf8').includes(
          'new URL("./address-worker.js", import.meta.url)',
        ),
      );
    expect(starter, 'a module in out/main starts ./address-worker.js').toBeDefined();
    const p = prefetcher(ELECTRON_WORKER, 8);
    p.take('evm');
    await p.filled('evm', 8);
    expect(isChecksumAddress(p.take('evm')!)).toBe(true);
  });

  it('never keeps the process alive: a process that used the worker exits by itself', () => {
    const script = `
      const { AddressPrefetcher } = await import(${JSON.stringify(pathToFileURL(join(process.cwd(), 'dist/server/addresses/prefetcher.js')).href)});
      const prefetcher = new AddressPrefetcher();
      prefetcher.take('evm');
      await prefetcher.filled('evm', 8);
      console.log(prefetcher.take('evm'));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      timeout: 10_000,
      encoding: 'utf8',
    });
    expect(isChecksumAddress(out.trim())).toBe(true);
  });

  it('stops its worker when no more are asked for, and starts one again when they are', async () => {
    const p = prefetcher(BUILT_WORKER, 16, 100);
    p.take('evm');
    await p.filled('evm', 16);
    // One worker made them. It may already have stopped: its idle timer can fire between the
    // batch's arrival and this line, so whether it runs now is not something to assert.
    expect(p.starts).toBe(1);
    for (let i = 0; i < 100 && p.running; i++) await new Promise((r) => setTimeout(r, 10));
    expect(p.running).toBe(false);
    expect(p.available).toBe(true); // stopped, not failed
    expect(p.size('evm')).toBe(16); // what it made stays ready
    for (let i = 0; i < 10; i++) expect(isChecksumAddress(p.take('evm')!)).toBe(true);
    expect(p.running).toBe(true); // below half: asked again
    await p.filled('evm', 16);
    expect(p.starts).toBe(2);
  });

  it('counts idleness from the last batch delivered, not from the last request', async () => {
    // The idle timer runs on fake time; the worker and its batch are real. The batch arrives 90 ms
    // after the request: 20 ms later the worker has been idle 110 ms since the request but only 20
    // since the batch, so it still runs; it stops idleMs after the batch.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const p = prefetcher(BUILT_WORKER, 16, 100);
      p.take('evm');
      vi.advanceTimersByTime(90);
      while (p.available && p.size('evm') === 0) await new Promise((r) => setImmediate(r));
      vi.advanceTimersByTime(20);
      expect(p.running).toBe(true);
      vi.advanceTimersByTime(70);
      expect(p.running).toBe(true);
      vi.advanceTimersByTime(20);
      expect(p.running).toBe(false);
      expect(p.starts).toBe(1);
      expect(p.size('evm')).toBe(16);
    } finally {
      vi.useRealTimers();
    }
  });

  it('never holds more than its capacity, whatever it is asked', async () => {
    const p = prefetcher(BUILT_WORKER, 16);
    p.take('tron');
    await p.filled('tron', 16);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(p.size('tron')).toBe(16);
    expect(p.size('evm')).toBe(0); // only the formats taken are prepared
  });

  it('gives up for good on a worker that cannot start or dies: takes answer undefined', async () => {
    const missing = prefetcher(pathToFileURL(join(tmpdir(), 'no-such-address-worker.js')));
    expect(missing.take('evm')).toBeUndefined();
    expect(missing.available).toBe(false);

    const dir = mkdtempSync(join(tmpdir(), 'addr-worker-'));
    const crashing = join(dir, 'crash.mjs');
    writeFileSync(crashing, "throw new Error('boom');\n");
    const crashes = prefetcher(pathToFileURL(crashing));
    expect(crashes.take('evm')).toBeUndefined();
    for (let i = 0; i < 200 && crashes.available; i++) await new Promise((r) => setTimeout(r, 10));
    expect(crashes.available).toBe(false);
    expect(crashes.take('evm')).toBeUndefined();
  });
});

describe('AddressSource and its worker', () => {
  it('from source the worker has no script: the request thread derives, and addresses stay valid', () => {
    const worker = new AddressPrefetcher();
    const source = new AddressSource(createIds(), worker);
    expect(source.next('tron')).toMatch(/^T/);
    expect(worker.available).toBe(false);
    expect(isValidAddress('bitcoin', source.next('bitcoin'))).toBe(true);
    expect(isChecksumAddress(source.next('bsc'))).toBe(true);
  });

  it('an unseeded source takes the built worker’s addresses', async () => {
    const worker = prefetcher(BUILT_WORKER, 16);
    const source = new AddressSource(createIds(), worker);
    source.next('polygon');
    await worker.filled('evm', 16);
    const served = worker.served;
    expect(isChecksumAddress(source.next('polygon'))).toBe(true);
    expect(worker.served).toBe(served + 1);
  });

  it('a seeded source never takes from the worker: the same seed gives the same addresses', async () => {
    const worker = prefetcher(BUILT_WORKER, 16);
    worker.take('evm');
    await worker.filled('evm', 16);
    const a = new AddressSource(createIds('same'), worker);
    const b = new AddressSource(createIds('same'));
    for (const chain of ['ethereum', 'tron', 'bitcoin']) expect(a.next(chain)).toBe(b.next(chain));
    expect(worker.served).toBe(0);
  });

  it('the built sandbox starts its own worker and stops it when it closes', () => {
    // A child process: the built server as the CLI runs it (the sandbox bundle; tsc's own output
    // leaves the hosted pages' client to the bundler), not through vitest.
    const script = `
      const { createRequire } = await import('node:module');
      const bundle = ${JSON.stringify(join(process.cwd(), 'dist/server/sandbox.bundle.cjs'))};
      const { createSandbox } = createRequire(bundle)(bundle);
      const sandbox = await createSandbox({ ports: { test: 0, production: 0 } });
      const worker = sandbox.ctx.addressSource.worker;
      const before = worker.running;
      sandbox.ctx.merchants.create({ name: 'First' });
      await worker.filled('evm', 8);
      const served = worker.served;
      sandbox.ctx.merchants.create({ name: 'Second' });
      const running = worker.running;
      await sandbox.close();
      console.log(JSON.stringify({ before, running, served: worker.served - served, after: worker.running }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      timeout: 20_000,
      encoding: 'utf8',
    });
    const seen = JSON.parse(out.trim()) as {
      before: boolean;
      running: boolean;
      served: number;
      after: boolean;
    };
    expect(seen.before).toBe(false); // started when addresses are wanted, not with the sandbox
    expect(seen.running).toBe(true);
    expect(seen.served).toBeGreaterThan(0); // the second merchant's EVM addresses came from the worker
    expect(seen.after).toBe(false);
  });
});
