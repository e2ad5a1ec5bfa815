/** Escapes text for HTML element content and attribute values. */
export const escapeHtml = (value: unknown): string =>
  String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A value as JSON inside a `<script type="application/json">`: `<` is escaped so no text (a title
 * saying `</script>`) can end the element early.
 */
export const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** Minor units per unit: every currency the sandbox handles has 6 decimals (spec: amounts in 10^-6). */
const SCALE = 1_000_000;

/**
 * Human units from integer minor units, exactly (no float arithmetic): `4000000, 'USDC'` →
 * `4.00 USDC`, at least two decimals and at most six, thousands grouped. The pages' scripts hold the
 * same function (formatMinor in the page script); the e2e tests compare the two on screen.
 */
export function formatMinor(amount: number, currency: string): string {
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(amount));
  const whole = Math.floor(abs / SCALE);
  const fraction = String(abs % SCALE)
    .padStart(6, '0')
    .replace(/0{1,4}$/, '');
  const grouped = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${grouped}.${fraction.padEnd(2, '0')} ${currency}`;
}

/** Chain ids in words, as a customer knows them. */
export const CHAIN_NAMES: Record<string, string> = {
  ethereum: 'Ethereum',
  tron: 'Tron',
  bitcoin: 'Bitcoin',
  polygon: 'Polygon',
  bsc: 'BNB Smart Chain',
  solana: 'Solana',
  arbitrum: 'Arbitrum',
  base: 'Base',
};

export const chainName = (chain: string): string =>
  CHAIN_NAMES[chain.toLowerCase()] ?? chain.charAt(0).toUpperCase() + chain.slice(1);

/** The pages' icon, inline: the app works offline, so nothing is fetched from anywhere. */
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#4f46e5"/><path d="M20 24h24a4 4 0 0 1 4 4v14a4 4 0 0 1-4 4H20a4 4 0 0 1-4-4V28a4 4 0 0 1 4-4z" fill="none" stroke="#fff" stroke-width="4"/><path d="M16 32h32" stroke="#fff" stroke-width="4"/><circle cx="40" cy="39" r="2.5" fill="#fff"/></svg>`;
export const FAVICON = `data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}`;

/** The look both hosted pages share: quiet, one accent colour, readable from 320 px up. */
export const BASE_CSS = `
:root{--ink:#1a1f36;--muted:#5f6b7e;--faint:#8792a2;--line:#e3e8ee;--bg:#f6f8fa;--panel:#fff;--accent:#4f46e5;--accent-ink:#fff;--accent-soft:#eef0ff;--ok:#0a7d4f;--ok-soft:#e6f6ee;--warn:#a15c07;--warn-soft:#fdf3e1;--bad:#c0262d;--bad-soft:#fdecec;--radius:12px;color-scheme:light}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:var(--bg);overflow-wrap:anywhere}
h1,h2,h3,p{margin:0}
button,input{font:inherit;color:inherit}
button{cursor:pointer}
button:disabled{cursor:default;opacity:.55}
:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.page{max-width:960px;margin:0 auto;padding:32px 24px 40px}
.topbar{display:flex;align-items:center;justify-content:space-between;gap:12px;margin-bottom:20px;min-width:0}
.brand{display:flex;align-items:center;gap:12px;min-width:0}
.avatar{flex:none;width:36px;height:36px;border-radius:10px;display:grid;place-items:center;background:var(--accent);color:var(--accent-ink);font-weight:650;font-size:16px}
.brand-name{font-weight:600;font-size:16px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.badge{flex:none;white-space:nowrap;display:inline-flex;align-items:center;gap:6px;padding:3px 10px;border-radius:999px;font-size:12px;font-weight:600;letter-spacing:.02em;background:var(--warn-soft);color:var(--warn)}
.pill{flex:none;white-space:nowrap;display:inline-flex;align-items:center;gap:6px;padding:3px 10px;border-radius:999px;font-size:13px;font-weight:600;background:var(--accent-soft);color:var(--accent)}
.pill::before{content:"";width:7px;height:7px;border-radius:50%;background:currentColor}
.pill.ok{background:var(--ok-soft);color:var(--ok)}
.pill.warn{background:var(--warn-soft);color:var(--warn)}
.pill.bad{background:var(--bad-soft);color:var(--bad)}
.pill.muted{background:#eef1f4;color:var(--muted)}
.muted{color:var(--muted)}
.small{font-size:13px}
.btn{display:inline-flex;align-items:center;justify-content:center;gap:8px;min-height:44px;padding:10px 18px;border-radius:10px;border:1px solid transparent;background:var(--accent);color:var(--accent-ink);font-weight:600;text-decoration:none;transition:filter .15s}
.btn:hover:not(:disabled){filter:brightness(1.08)}
.btn.secondary{background:var(--panel);color:var(--ink);border-color:var(--line)}
.btn.ok{background:var(--ok)}
.btn.bad{background:var(--bad)}
.footer{margin-top:24px;text-align:center;font-size:12px;color:var(--faint)}
@media (max-width:600px){.page{padding:16px 12px 28px}.topbar{margin-bottom:14px}}
`;

/** A whole hosted page: favicon, viewport, the shared look plus the page's own. */
export function pageDocument(parts: { title: string; css: string; body: string; script?: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><link rel="icon" type="image/svg+xml" href="${FAVICON}"><title>${escapeHtml(parts.title)}</title><style>${BASE_CSS}${parts.css}</style></head><body>${parts.body}${parts.script ? `<script>${parts.script}</script>` : ''}</body></html>`;
}
