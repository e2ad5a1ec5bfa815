import type { StoredRequestLogRow } from './rows.js';

/**
 * Takes the rows out of the workspace database's `request_log` table (an imported bundle's log,
 * or the log of a version that kept it there) for the request log to take over.
 */
export function takeWorkspaceRequestLog(db: {
  prepare(sql: string): { all(): unknown[]; run(): unknown };
}): StoredRequestLogRow[] {
  const rows = db
    .prepare(
      `SELECT seq, id, created_at, env, merchant_id, api_key_id, api_key, method, route, path, status,
         duration_ms, request_body, response_body FROM request_log ORDER BY seq`,
    )
    .all() as StoredRequestLogRow[];
  if (rows.length > 0) db.prepare('DELETE FROM request_log').run();
  return rows;
}
