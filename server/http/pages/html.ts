import { createHash } from 'node:crypto';
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

const hashes = new Map<string, string>();
/** A script's CSP source (`'sha256-…'`): the pages' scripts are constants, so each is hashed once. */
function scriptSource(script: string): string {
  let source = hashes.get(script);
  if (source === undefined) {
    source = `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
    hashes.set(script, source);
  }
  return source;
}

/**
 * The hosted pages' policy: their one inline script allowed by its hash (no other inline script
 * runs), their inline styles, fetches to their own origin only; framed only by the origins the
 * workspace's `hosted_pages_frame_ancestors` setting names (a shop embedding its checkout), else by
 * none.
 */
export function pagePolicy(script: string | undefined, frameAncestors: readonly string[]): string {
  return [
    "default-src 'self'",
    `script-src ${script === undefined ? "'none'" : scriptSource(script)}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');
}
