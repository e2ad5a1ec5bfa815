import type { Ids } from '../ids.js';
import { addressFormat, formatAddress } from './formats.js';
import { EvmAddressPool } from './pool.js';
import type { AddressPrefetcher } from './prefetcher.js';

/**
 * The deposit and payer addresses of one sandbox, drawn from its id source. A seeded source derives
 * each address on demand, never ahead of time: its sequence (and so every id after an address)
 * must not depend on when a refill ran. An unseeded one takes addresses from the address worker
 * (`worker`, built and closed by the wiring) and, where no worker runs, from a pool of EVM
 * addresses derived in later event-loop turns.
 */
export class AddressSource {
  private pool: EvmAddressPool | undefined;

  constructor(
    private readonly ids: Ids,
    readonly worker?: AddressPrefetcher | undefined,
  ) {}

  /** A new address for `chain`, in its chain's notation. */
  next(chain: string): string {
    const { ids, worker } = this;
    const format = addressFormat(chain);
    if (ids.seeded) return formatAddress(format, ids.bytes(20));
    const prefetched = worker?.take(format);
    if (prefetched !== undefined) return prefetched;
    // The worker is only behind (it has been asked): derive this one, not a second pool here.
    if (format !== 'evm' || worker?.available) return formatAddress(format, ids.bytes(20));
    this.pool ??= new EvmAddressPool(() => ids.bytes(20));
    return this.pool.take();
  }
}
