import type { Env } from '../contract/common.js';
import type { Db } from '../db/connection.js';
import { ownUrl, workspaceBase } from './own-url.js';

const INBOX = /^\/sandbox\/inbox\//;

/**
 * A fork holds its source's webhook endpoints. One that addresses the source's own built-in inbox
 * (`/w/<source>/sandbox/inbox/…`, `?workspace=<source>`, or the bare address of the default
 * workspace) would deliver the fork's events into the source: it is re-pointed at the fork's own
 * inbox of the same name, and so are its deliveries still pending. Endpoints elsewhere stay.
 * Returns how many endpoints changed.
 */
export function repointInboxes(
  db: Db,
  source: { id: string; name: string },
  fork: string,
  origins: Readonly<Record<Env, string>>,
): number {
  const endpoints = db
    .prepare<[], { id: string; url: string }>('SELECT id, url FROM webhook_endpoints')
    .all();
  const setEndpoint = db.prepare<[string, string]>('UPDATE webhook_endpoints SET url = ? WHERE id = ?');
  const setPending = db.prepare<[string, string]>(
    "UPDATE webhook_deliveries SET url = ? WHERE endpoint_id = ? AND status = 'pending'",
  );
  const sourceName = source.name.toLowerCase();
  let changed = 0;
  db.transaction(() => {
    for (const endpoint of endpoints) {
      const own = ownUrl(endpoint.url, origins);
      if (!own || !INBOX.test(own.rest)) continue;
      if (own.workspace !== source.id && own.workspace.toLowerCase() !== sourceName) continue;
      const url = renamed(endpoint.url, own.form, own.rest, fork);
      setEndpoint.run(url, endpoint.id);
      setPending.run(url, endpoint.id);
      changed++;
    }
  })();
  return changed;
}

/** The same address naming workspace `fork` the way it named the source (a query keeps its form). */
function renamed(url: string, form: 'prefix' | 'query' | 'bare', rest: string, fork: string): string {
  const parsed = new URL(url);
  if (form === 'query') {
    parsed.searchParams.set('workspace', fork);
    return parsed.toString();
  }
  return `${workspaceBase(parsed.origin, fork)}${rest}`;
}
