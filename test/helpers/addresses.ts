import { expect } from 'vitest';
import { isChecksumAddress, isValidAddress } from '../../server/addresses/formats.js';

/** Asserts an address is well formed for its chain, more strictly than the server's own check. */
export function expectAddressValidFor(chain: string, address: string): void {
  expect(isValidAddress(chain, address), `${chain} ${address}`).toBe(true);
  if (chain === 'tron') expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
  else if (chain === 'bitcoin') expect(address).toMatch(/^bc1q[02-9ac-hj-np-z]{38}$/);
  else expect(isChecksumAddress(address), `${chain} ${address} is EIP-55`).toBe(true);
}
