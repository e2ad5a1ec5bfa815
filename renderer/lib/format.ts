// Sandbox time is shown in UTC: it is what the API returns and what webhooks carry. Timestamps and
// days read the same here and on the hosted pages: one rule, in server/format (it imports nothing).
import { formatDay } from '../../server/format/dates.js';

export { formatDay, formatTimestamp } from '../../server/format/dates.js';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const time = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});
/** The clock's date: "Thu, 03 Dec 2026" (the day as every timestamp writes it). */
export const formatDate = (ms: number) => `${WEEKDAYS[new Date(ms).getUTCDay()]}, ${formatDay(ms)}`;
export const formatTime = (ms: number) => time.format(ms);

/** A request's duration with the decimals that matter: `0.42 ms`, `3.6 ms`, `250.3 ms`. */
export const formatDuration = (ms: number) => `${ms < 1 ? ms.toFixed(2) : ms.toFixed(1)} ms`;

/** "+1 d 2 h 3 min" ahead of (or behind) real time; "in step with real time" at zero. */
export function formatOffset(ms: number): string {
  const sign = ms < 0 ? '−' : '+';
  let seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds === 0) return 'in step with real time';
  const days = Math.floor(seconds / 86400);
  seconds -= days * 86400;
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  const parts = [
    days ? `${days} d` : '',
    hours ? `${hours} h` : '',
    minutes ? `${minutes} min` : '',
    seconds && !days ? `${seconds} s` : '',
  ].filter(Boolean);
  return `${sign}${parts.join(' ')} ${ms < 0 ? 'behind' : 'ahead of'} real time`;
}

// The one formatter of the dashboard: amounts, statuses and chain names are shown through here, so
// one thing reads the same on every page ("BNB Smart Chain", "KYC not started", "12.50 USDC").

// Money is integers in 6dp minor units everywhere (1 USDC = 1 000 000). It is formatted and parsed
// with string arithmetic, never through floats, so what is shown is exactly what is stored.

const UNIT_DIGITS = 6;

/** Decimal places of a currency's minor unit: every currency of the API is 6dp (spec: "6dp"). */
export const currencyDigits = (_currency?: string) => UNIT_DIGITS;

/** 25_000_000 → "25.00", 1_234_567 → "1.234567", -500_000 → "−0.50"; thousands grouped. */
export function formatAmount(minor: number, digitsOf = UNIT_DIGITS): string {
  const negative = minor < 0;
  const digits = String(Math.abs(Math.trunc(minor))).padStart(digitsOf + 1, '0');
  const whole = digits.slice(0, -digitsOf).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = digits.slice(-digitsOf).replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '−' : ''}${whole}.${fraction}`;
}

/**
 * "25.00 USDC" — always the currency's code, never "$" (token amounts are not dollars); a null
 * amount (open-amount checkout) is "Any amount · USDC".
 */
export const formatMoney = (minor: number | null, currency: string) =>
  minor === null
    ? `Any amount · ${currency}`
    : `${formatAmount(minor, currencyDigits(currency))} ${currency}`;

/** Chains by their catalogue id, in words: the one table every page uses. */
const CHAIN_NAMES: Record<string, string> = {
  ethereum: 'Ethereum',
  tron: 'Tron',
  bitcoin: 'Bitcoin',
  polygon: 'Polygon',
  bsc: 'BNB Smart Chain',
  solana: 'Solana',
  base: 'Base',
  arbitrum: 'Arbitrum One',
  optimism: 'OP Mainnet',
  avalanche: 'Avalanche C-Chain',
};

/** "bsc" → "BNB Smart Chain"; a chain not in the table keeps its own name, capitalised. */
export const chainName = (chain: string) =>
  CHAIN_NAMES[chain.toLowerCase()] ?? (chain ? chain.charAt(0).toUpperCase() + chain.slice(1) : chain);

/** Words the API abbreviates, as people write them. */
const WORDS: Record<string, string> = {
  kyc: 'KYC',
  kyb: 'KYB',
  api: 'API',
  url: 'URL',
  pin: 'PIN',
  cvc: 'CVC',
};

/**
 * A machine status in words, sentence case: "not_started" → "not started", "notActivated" → "not
 * activated", "kyc_pending" → "KYC pending". Prefix it ("KYC " + …) to name what it is the status of.
 */
export const describeStatus = (status: string) =>
  status
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[\s._-]+/)
    .filter(Boolean)
    .map((word) => WORDS[word.toLowerCase()] ?? word.toLowerCase())
    .join(' ');

/** A status as a label on its own (a badge): "Not started", "KYC approved". */
export const statusLabel = (status: string) => {
  const words = describeStatus(status);
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** "12.5" → 12_500_000; null when not a positive number with at most 6 decimals. */
export function parseAmount(text: string): number | null {
  const match = /^\s*(\d{1,9})(?:[.,](\d{0,6}))?\s*$/.exec(text);
  if (!match) return null;
  const minor = Number(match[1]) * 10 ** UNIT_DIGITS + Number((match[2] ?? '').padEnd(UNIT_DIGITS, '0'));
  return minor > 0 ? minor : null;
}

/** "0x1234…cdef": long addresses and ids, shortened for tables (the full value is in the title). */
export const shorten = (value: string, keep = 6) =>
  value.length <= keep * 2 + 1 ? value : `${value.slice(0, keep)}…${value.slice(-keep + 2)}`;

/** "checkout.partially_refunded" style machine words → "checkout partially refunded". */
export const humanize = (value: string) => describeStatus(value);

/** The card network's decline reasons (machine words, for integrators) as a merchant says them. */
const DECLINES: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^exceeds spend_tx_max \((.+)\)$/, (m) => `Over the card’s limit per payment (${m[1]})`],
  [/^exceeds spend_daily_max \((.+)\)$/, (m) => `Over the card’s daily limit (${m[1]})`],
  [/^exceeds spend_monthly_max \((.+)\)$/, (m) => `Over the card’s monthly limit (${m[1]})`],
  [/^insufficient funds \(balance (.+)\)$/, (m) => `Not enough money on the card (${m[1]} left)`],
  [
    /^online \(card-not-present\) spending is disabled$/,
    () => 'Online payments are switched off for this card',
  ],
  [/^in-person spending is disabled$/, () => 'Payments in shops are switched off for this card'],
  [/^card is (\w+)$/, (m) => `The card is ${describeStatus(m[1] ?? '')}`],
];

/** "exceeds spend_tx_max (5,000.00 USDC)" → "Over the card’s limit per payment (5,000.00 USDC)". */
export function declineInWords(reason: string): string {
  for (const [pattern, words] of DECLINES) {
    const match = reason.match(pattern);
    if (match) return words(match);
  }
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

const RAW_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A URL of the sandbox's own inbox, on any of its addresses, with or without a workspace. */
const INBOX_URL =
  /https?:\/\/[^\s/"']+(?:\/w\/[A-Za-z0-9_]+)?\/sandbox\/inbox\/([A-Za-z0-9_-]{1,64})(?:\?[^\s"'#]*)?/g;
/** A URL on this machine (the developer's app, the sandbox's own address): no host for an audience. */
const LOCAL_ORIGIN = /https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d+)?/gi;
const WORKSPACE_ID = /\bws_[A-Za-z0-9]+/g;
const CONTROL_PATH = /\/sandbox\/[^\s"']*/g;

/**
 * Text as presentation mode shows a URL or a payload: raw ids and workspace ids blanked out ("•••"),
 * the built-in inbox by its name, a local app as `your-app.example`, no control-API path.
 */
export const withoutIds = (text: string) =>
  text
    .replace(INBOX_URL, (_, name: string) => `built-in inbox “${name}”`)
    .replace(LOCAL_ORIGIN, 'https://your-app.example')
    .replace(CONTROL_PATH, '…')
    .replace(WORKSPACE_ID, '•••')
    .replace(RAW_ID, '•••');
