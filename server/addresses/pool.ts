import { evmAddress } from './formats.js';

/**
 * EVM addresses derived ahead of time, off the request path: the Keccak of each one is computed in
 * a later event-loop turn (in chunks), and a request only takes the next one. Exact: every address
 * is `evmAddress` of the next 20 bytes drawn, in draw order (first drawn, first taken), the same
 * sequence a derivation on demand would give. At most `capacity` addresses are held.
 * An unseeded AddressSource uses one where no address worker runs (the server run from source).
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
