import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createIds } from '../../server/ids.js';
import {
  type AddressFormat,
  AddressPrefetcher,
  addressPrefetcher,
  generateAddress,
  isChecksumAddress,
  isValidAddress,
} from '../../server/simulate/addresses.js';

// The worker's script as the builds make it (the test command builds before it runs the tests):
// the CLI's (tsc's output) and the desktop app's (electron-vite's second main entry).
const BUILT_WORKER = pathToFileURL(join(process.cwd(), 'dist/server/simulate/address-worker.js'));
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

  it('the desktop build ships the worker beside the module that starts it, and it answers', async () => {
    const chunk = readdirSync(join(process.cwd(), 'out/main')).find((f) => /^addresses-.*\.js$/.test(f));
    expect(chunk, 'out/main has the addresses chunk').toBeDefined();
    expect(readFileSync(join(process.cwd(), 'out/main', chunk!), 'utf8')).toContain(
      'new URL("./address-worker.js", import.meta.url)',
    );
    const p = prefetcher(ELECTRON_WORKER, 8);
    p.take('evm');
    await p.filled('evm', 8);
    expect(isChecksumAddress(p.take('evm')!)).toBe(true);
  });

  it('never keeps the process alive: a process that used the worker exits by itself', () => {
    const script = `
      const { addressPrefetcher } = await import(${JSON.stringify(pathToFileURL(join(process.cwd(), 'dist/server/simulate/addresses.js')).href)});
      addressPrefetcher.take('evm');
      await addressPrefetcher.filled('evm', 8);
      console.log(addressPrefetcher.take('evm'));
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
    expect(p.running).toBe(true);
    for (let i = 0; i < 100 && p.running; i++) await new Promise((r) => setTimeout(r, 10));
    expect(p.running).toBe(false);
    expect(p.available).toBe(true); // stopped, not failed
    expect(p.size('evm')).toBe(16); // what it made stays ready
    for (let i = 0; i < 10; i++) expect(isChecksumAddress(p.take('evm')!)).toBe(true);
    expect(p.running).toBe(true); // below half: asked again
    await p.filled('evm', 16);
    expect(p.starts).toBe(2);
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

describe('generateAddress and the process worker', () => {
  it('from source the worker has no script: the request thread derives, and addresses stay valid', () => {
    const ids = createIds();
    expect(generateAddress('tron', ids)).toMatch(/^T/);
    expect(addressPrefetcher.available).toBe(false);
    expect(isValidAddress('bitcoin', generateAddress('bitcoin', ids))).toBe(true);
    expect(isChecksumAddress(generateAddress('bsc', ids))).toBe(true);
  });

  it('a seeded source never takes from the worker: the same seed gives the same addresses', () => {
    const a = createIds('same');
    const b = createIds('same');
    for (const chain of ['ethereum', 'tron', 'bitcoin'])
      expect(generateAddress(chain, a)).toBe(generateAddress(chain, b));
  });
});
