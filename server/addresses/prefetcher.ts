import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AddressFormat } from './formats.js';

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
 * wanted and stopped once `idleMs` has passed with no request for more and no batch delivered (a
 * worker thread holds ~10 MB: an app at rest does not keep it); it never keeps the process alive.
 * The wiring (createSandbox) builds one per sandbox and closes it with the sandbox.
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
        // Idle counts from here too: a batch that took longer than idleMs (a busy machine) must not
        // see its worker stopped a moment after it arrives, just as the next take asks again.
        this.idleTimer?.refresh();
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
