import BASE_CSS from './client/base.css?page-style';

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

/** A whole hosted page: favicon, viewport, the shared look plus the page's own. */
export function pageDocument(parts: { title: string; css: string; body: string; script?: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><link rel="icon" type="image/svg+xml" href="${FAVICON}"><title>${escapeHtml(parts.title)}</title><style>${BASE_CSS}${parts.css}</style></head><body>${parts.body}${parts.script ? `<script>${parts.script}</script>` : ''}</body></html>`;
}
