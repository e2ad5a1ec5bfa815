import { hash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bech32, createBase58check } from '@scure/base';
import type { Ids } from '../ids.js';

/**
 * Deposit and payer addresses that look real for their chain, so an integrator's address
 * validation accepts them: EVM chains get EIP-55 checksummed hex, tron a base58check address with
 * version byte 0x41 (starts with T), bitcoin a bech32 P2WPKH address (bc1q...).
 */
// Native one-shot SHA-256 (the checksum runs twice per tron address).
const sha256 = (data: Uint8Array): Uint8Array => hash('sha256', data, 'buffer');
const base58check = createBase58check(sha256);
const EVM_CHAINS = new Set(['ethereum', 'polygon', 'bsc']);

/** EIP-55: a hex letter is upper case where the Keccak-256 of the lower-case hex has a nibble ≥ 8. */
export function toChecksumAddress(hex40: string): string {
  const lower = hex40.toLowerCase();
  const hash = keccak_256(Buffer.from(lower, 'latin1'));
  const chars = Buffer.from(`0x${lower}`, 'latin1');
  for (let i = 0; i < 40; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1]! >> 4 : hash[i >> 1]! & 0x0f;
    const c = chars[i + 2]!;
    // a-f (0x61-0x66) become A-F where the nibble says so; digits have no case.
    if (nibble >= 8 && c >= 0x61) chars[i + 2] = c - 0x20;
  }
  return chars.toString('latin1');
}

export function isChecksumAddress(address: string): boolean {
  return /^0x[0-9a-fA-F]{40}$/.test(address) && toChecksumAddress(address.slice(2)) === address;
}

/** An EIP-55 address from 20 random bytes (one Keccak-256). */
export const evmAddress = (body: Uint8Array): string => toChecksumAddress(Buffer.from(body).toString('hex'));

/** How a chain writes its addresses: EIP-55 hex for the EVM chains and any chain an operator adds. */
export type AddressFormat = 'evm' | 'tron' | 'bitcoin';

export const addressFormat = (chain: string): AddressFormat =>
  chain === 'tron' || chain === 'bitcoin' ? chain : 'evm';

/** The address of `format` for a 20-byte body (a public key hash). */
export function formatAddress(format: AddressFormat, body: Uint8Array): string {
  if (format === 'tron') {
    const raw = new Uint8Array(21);
    raw[0] = 0x41;
    raw.set(body, 1);
    return base58check.encode(raw);
  }
  if (format === 'bitcoin') return bech32.encode('bc', [0, ...bech32.toWords(body)]);
  return evmAddress(body);
}

/**
 * EVM addresses derived ahead of time, off the request path: the Keccak of each one is computed in
 * a later event-loop turn (in chunks), and a request only takes the next one. Exact: every address
 * is `evmAddress` of the next 20 bytes drawn, in draw order (first drawn, first taken), the same
 * sequence a derivation on demand would give. At most `capacity` addresses are held.
 * Where the address worker runs (the built server), it is the fallback for an unseeded source.
 */
export class EvmAddressPool {
  private readonly ready: string[] = [];
  private scheduled = false;

  constructor(
    private readonly draw: () => Uint8Array,
    readonly capacity = 128,
    private readonly chunk = 16,
  ) {}

  get size(): number {
    return this.ready.length;
  }

  take(): string {
    // Empty: derive now (drawing now keeps the order, nothing drawn earlier is waiting).
    const address = this.ready.shift() ?? evmAddress(this.draw());
    if (this.ready.length <= this.capacity / 2) this.refillLater();
    return address;
  }

  /** Derives up to `count` more now, never past the capacity. */
  fill(count = this.capacity): void {
    const n = Math.min(count, this.capacity - this.ready.length);
    for (let i = 0; i < n; i++) this.ready.push(evmAddress(this.draw()));
  }

  private refillLater(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const turn = () => {
      this.fill(this.chunk);
      if (this.ready.length < this.capacity) setImmediate(turn).unref();
      else this.scheduled = false;
    };
    setImmediate(turn).unref();
  }
}

/** What the address worker is asked for, and what it answers. */
export interface AddressRequest {
  format: AddressFormat;
  count: number;
}
export interface AddressBatch {
  format: AddressFormat;
  addresses: string[];
}

/** The worker's script: tsc's output beside this module (absent when the server runs from source). */
const WORKER_URL = new URL('./address-worker.js', import.meta.url);

/**
 * Addresses for unseeded sources, derived on a worker thread (random bodies drawn there): the
 * Keccak-256 of an EVM address and the base58check of a tron one cost the request thread nothing.
 * Each format keeps up to `capacity` addresses; below `capacity / 2` it asks the worker for the
 * rest. `take` answers `undefined` when none is ready (the caller derives one on its own thread),
 * so a slow, missing or crashed worker only costs speed. The worker is started when addresses are
 * wanted and stopped after `idleMs` without a request for more (a worker thread holds ~10 MB: an
 * app at rest does not keep it); it never keeps the process alive, and is shared by every sandbox
 * of the process: addresses from a random source belong to no one until taken.
 */
export class AddressPrefetcher {
  private worker: Worker | undefined;
  private failed = false;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Workers started so far (for tests). */
  starts = 0;
  private readonly ready: Record<AddressFormat, string[]> = { evm: [], tron: [], bitcoin: [] };
  private readonly asked: Record<AddressFormat, boolean> = { evm: false, tron: false, bitcoin: false };
  /** Addresses served from the worker's batches (for tests). */
  served = 0;

  constructor(
    private readonly script: URL = WORKER_URL,
    readonly capacity = 256,
    readonly idleMs = 2_000,
  ) {}

  /** False where the worker cannot run (no script beside this module, or it failed). */
  get available(): boolean {
    return !this.failed;
  }

  /** Whether a worker thread is running now. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  size(format: AddressFormat): number {
    return this.ready[format].length;
  }

  take(format: AddressFormat): string | undefined {
    if (this.failed) return undefined;
    const queue = this.ready[format];
    const address = queue.pop();
    if (address !== undefined) this.served++;
    if (queue.length <= this.capacity / 2 && !this.asked[format]) this.ask(format);
    return address;
  }

  /** Resolves once `format` holds `count` addresses (or the worker failed): for tests. */
  async filled(format: AddressFormat, count = this.capacity / 2): Promise<void> {
    while (!this.failed && this.ready[format].length < count) {
      if (!this.asked[format]) this.ask(format);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Stops the worker (the addresses it made stay ready); the next request for more starts one. */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const worker = this.worker;
    this.worker = undefined;
    this.asked.evm = this.asked.tron = this.asked.bitcoin = false;
    if (worker) await worker.terminate();
  }

  private ask(format: AddressFormat): void {
    const worker = this.start();
    if (!worker) return;
    if (this.idleTimer) this.idleTimer.refresh();
    else this.idleTimer = setTimeout(() => this.stopIfIdle(), this.idleMs).unref();
    this.asked[format] = true;
    const request: AddressRequest = { format, count: this.capacity - this.ready[format].length };
    worker.postMessage(request);
  }

  private stopIfIdle(): void {
    this.idleTimer = undefined;
    // A batch still on its way: wait for it (the next ask re-arms the timer).
    if (this.asked.evm || this.asked.tron || this.asked.bitcoin) {
      this.idleTimer = setTimeout(() => this.stopIfIdle(), this.idleMs).unref();
      return;
    }
    void this.close();
  }

  private start(): Worker | undefined {
    if (this.worker || this.failed) return this.worker;
    if (this.script.protocol !== 'file:' || !existsSync(fileURLToPath(this.script))) {
      this.failed = true;
      return undefined;
    }
    try {
      // No inherited Node flags (a flag meant for the entry, like --input-type, stops a worker from
      // starting); a small heap: it holds one batch at a time.
      this.starts++;
      const worker = new Worker(this.script, {
        execArgv: [],
        resourceLimits: { maxOldGenerationSizeMb: 32 },
      });
      worker.on('message', (batch: AddressBatch) => {
        if (this.worker !== worker) return;
        const queue = this.ready[batch.format];
        for (const address of batch.addresses) queue.push(address);
        this.asked[batch.format] = false;
      });
      // A worker that fails or exits leaves the derivation to the request thread, for good.
      const stop = () => {
        if (this.worker !== worker) return;
        this.failed = true;
        this.worker = undefined;
      };
      worker.on('error', stop);
      worker.on('exit', stop);
      // After the listeners: adding a 'message' listener refs the worker again.
      worker.unref();
      this.worker = worker;
      return worker;
    } catch {
      this.failed = true;
      return undefined;
    }
  }
}

/** The process's address worker (see AddressPrefetcher). */
export const addressPrefetcher = new AddressPrefetcher();

// One pool per unseeded id source, for where the worker cannot run. A seeded source is never
// drawn from ahead of time: its sequence (and so every id after an address) must not depend on
// when a refill ran.
const pools = new WeakMap<Ids, EvmAddressPool>();

export function generateAddress(chain: string, ids: Ids): string {
  const format = addressFormat(chain);
  if (ids.seeded) return formatAddress(format, ids.bytes(20));
  const prefetched = addressPrefetcher.take(format);
  if (prefetched !== undefined) return prefetched;
  // The worker is only behind (it has been asked): derive this one, not a second pool here.
  if (format !== 'evm' || addressPrefetcher.available) return formatAddress(format, ids.bytes(20));
  let pool = pools.get(ids);
  if (!pool) {
    pool = new EvmAddressPool(() => ids.bytes(20));
    pools.set(ids, pool);
  }
  return pool.take();
}

/** Whether `address` is well formed for `chain` (used to validate payer and refund addresses). */
export function isValidAddress(chain: string, address: string): boolean {
  if (chain === 'tron') {
    try {
      const raw = base58check.decode(address);
      return raw.length === 21 && raw[0] === 0x41;
    } catch {
      return false;
    }
  }
  if (chain === 'bitcoin') {
    try {
      const decoded = bech32.decode(address as `${string}1${string}`);
      return decoded.prefix === 'bc';
    } catch {
      return false;
    }
  }
  if (EVM_CHAINS.has(chain)) {
    // EIP-55: all-lower or all-upper hex carries no checksum; mixed case must be the correct checksum.
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
    const hex = address.slice(2);
    return hex === hex.toLowerCase() || hex === hex.toUpperCase() || isChecksumAddress(address);
  }
  return address.length > 0;
}

/** A transaction hash in the chain's usual notation. */
export function generateTxid(chain: string, ids: Ids): string {
  const hex = ids.hex(64);
  return chain === 'tron' || chain === 'bitcoin' ? hex : `0x${hex}`;
}
