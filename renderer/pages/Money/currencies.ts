import type { ChainConfig } from '../../api/types';

/** Every token some chain accepts (USDC, USDT, ETH...), stablecoins first as in the catalogue. */
export function currenciesOf(chains: ChainConfig[]): string[] {
  const seen = new Set<string>();
  for (const chain of chains) for (const token of chain.tokens) seen.add(token.name);
  return seen.size > 0 ? [...seen] : ['USDC', 'USDT'];
}
