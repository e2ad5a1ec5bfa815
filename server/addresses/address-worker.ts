/**
 * The address worker (see AddressPrefetcher in ./prefetcher.ts): answers each request with that many
 * addresses of the format, from fresh random bodies. It holds nothing between requests.
 */
import { randomFillSync } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { formatAddress } from './formats.js';
import type { AddressBatch, AddressRequest } from './prefetcher.js';

const port = parentPort;
if (!port) throw new Error('address-worker.js runs as a worker thread');

port.on('message', ({ format, count }: AddressRequest) => {
  const bodies = randomFillSync(Buffer.alloc(20 * count));
  const addresses: string[] = [];
  for (let i = 0; i < count; i++) addresses.push(formatAddress(format, bodies.subarray(20 * i, 20 * i + 20)));
  const batch: AddressBatch = { format, addresses };
  port.postMessage(batch);
});
