import { Value } from 'typebox/value';
import { FaultMark } from '../contract/faults.js';
import type { StoredRequestLogRow } from './rows.js';

type TableRow = Omit<StoredRequestLogRow, 'fault'> & { fault: string | null };

/**
 * Takes the rows out of the workspace database's `request_log` table (an imported bundle's log,
 * or the log of a version that kept it there) for the request log to take over. A fault mark that
 * does not read as one (a hand-edited bundle) is dropped; the entry stays.
 */
export function takeWorkspaceRequestLog(db: {
  prepare(sql: string): { all(): unknown[]; run(): unknown };
}): StoredRequestLogRow[] {
  const rows = db
    .prepare(
      `SELECT seq, id, created_at, env, merchant_id, api_key_id, api_key, method, route, path, status,
         duration_ms, request_body, response_body, fault FROM request_log ORDER BY seq`,
    )
    .all() as TableRow[];
  if (rows.length > 0) db.prepare('DELETE FROM request_log').run();
  return rows.map(({ fault, ...row }) => {
    const mark = fault === null ? undefined : readMark(fault);
    return mark === undefined ? row : { ...row, fault: mark };
  });
}

function readMark(text: string): FaultMark | undefined {
  try {
    const mark: unknown = JSON.parse(text);
    return Value.Check(FaultMark, mark) ? mark : undefined;
  } catch {
    return undefined;
  }
}
