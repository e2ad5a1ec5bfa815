import type { ChainConfig, ChainToken } from '../../contract/settings.js';
import { ValidationError } from '../../errors.js';

/**
 * Which tokens can pay a checkout in a given currency. Stablecoin-denominated checkouts (USDC,
 * USDT, USD) accept either stablecoin at par; ETH and BTC checkouts accept only that coin.
 * (Our rule: the spec lists tokens per chain but not the currency ↔ token mapping.)
 */
const STABLE_CURRENCIES = new Set(['USDC', 'USDT', 'USD']);
const STABLE_TOKENS = new Set(['USDC', 'USDT']);
export const SUPPORTED_CURRENCIES = ['USDC', 'USDT', 'USD', 'ETH', 'BTC'] as const;
/** Currencies a fiat session can take. */
export const FIAT_CURRENCIES = new Set(['USDC', 'USDT', 'USD']);

/** A request's `currency` (default USDC), upper-cased and checked against what the sandbox supports. */
export function checkoutCurrency(value: string | undefined): string {
  const currency = (value ?? 'USDC').toUpperCase();
  if (!(SUPPORTED_CURRENCIES as readonly string[]).includes(currency)) {
    throw new ValidationError(
      'currency',
      `unsupported currency ${currency} (one of ${SUPPORTED_CURRENCIES.join(', ')})`,
    );
  }
  return currency;
}

export function tokenPaysCurrency(token: string, currency: string): boolean {
  return STABLE_CURRENCIES.has(currency) ? STABLE_TOKENS.has(token) : token === currency;
}

function tokenTakesAmount(token: ChainToken, amount: number | null): boolean {
  if (amount === null) return true;
  return (token.min === 0 || amount >= token.min) && (token.max === 0 || amount <= token.max);
}

/**
 * The chains a checkout gets deposit addresses on: the requested ones (matched by name, case
 * insensitive; names the catalogue does not know are dropped, like "Solana"), or all, each keeping
 * only the tokens that pay the currency and whose min/max admit the amount. A chain left with no
 * token is not eligible.
 */
export function eligibleChains(
  catalogue: readonly ChainConfig[],
  requested: readonly string[] | undefined,
  currency: string,
  amount: number | null,
): ChainConfig[] {
  const wanted = requested ? new Set(requested.map((name) => name.trim().toLowerCase())) : null;
  const result: ChainConfig[] = [];
  for (const chain of catalogue) {
    if (wanted && !wanted.has(chain.chain.toLowerCase())) continue;
    const tokens = chain.tokens.filter(
      (token) => tokenPaysCurrency(token.name, currency) && tokenTakesAmount(token, amount),
    );
    if (tokens.length > 0) result.push({ chain: chain.chain, tokens });
  }
  return result;
}
