import { existsSync } from 'node:fs';
import type { ResolvedCall } from '../contract/call.js';
import type { Db } from '../db/connection.js';
import type { WorkspaceTransfer } from '../workspaces/transfer.js';
import { CliFailure, controlHeaders } from './common.js';

/**
 * What `export` and `import` share: a database file opened offline (refused while a sandbox holds
 * it), and the bytes of a bundle over the control API of a running one.
 */

/** Opens `path` as the sandbox does (migrations included) and runs `fn` with a transfer on it. */
export async function withOfflineTransfer<T>(
  path: string,
  options: { mustExist: boolean },
  fn: (transfer: WorkspaceTransfer) => Promise<T>,
): Promise<T> {
  if (options.mustExist && !existsSync(path)) throw new CliFailure(`no database file at ${path}`);
  // Loaded only now: --help and usage errors answer without loading the server.
  const [
    { openDatabase },
    { createKvRepo },
    { SandboxClock },
    { WorkspaceTransfer },
    { VERSION },
    { RequestLog },
    { requestLogDir },
    { Statements, UNWATCHED },
  ] = await Promise.all([
    import('../db/connection.js'),
    import('../db/kv.js'),
    import('../clock.js'),
    import('../workspaces/transfer.js'),
    import('../version.js'),
    import('../request-log/log.js'),
    import('../request-log/segments.js'),
    import('../db/statements.js'),
  ]);
  let db: Db;
  try {
    db = openDatabase(path);
  } catch (error) {
    const message = (error as Error).message;
    const hint = /locked|busy/i.test(message)
      ? ' (is another svc-sandbox using this file? stop it, or use --url)'
      : '';
    throw new CliFailure(`cannot open ${path}: ${message}${hint}`);
  }
  try {
    // Offline: no live dashboard watches this file's writes.
    const kv = createKvRepo(new Statements(db, UNWATCHED));
    // The file's own sandbox time (its stored clock state), read-only.
    const clock = new SandboxClock({ load: () => kv.get('clock'), save: () => {} });
    // The request log is beside the file (an export carries it; an import's is taken over at the
    // sandbox's next start).
    const logDir = requestLogDir(path);
    const requestLog = logDir && existsSync(logDir) ? new RequestLog({ dir: logDir }) : undefined;
    try {
      const transfer = new WorkspaceTransfer({
        db,
        nowIso: () => clock.nowIso(),
        appVersion: VERSION,
        requestLog,
      });
      return await fn(transfer);
    } finally {
      requestLog?.close();
    }
  } finally {
    db.close();
  }
}

/** A refused bundle or an unknown merchant: a message for stderr (exit 1), not a crash. */
export async function explained<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Error && 'statusCode' in error) throw new CliFailure(error.message);
    throw error;
  }
}

/**
 * A control-API call with a byte body or a byte answer (sandboxExportWorkspace,
 * sandboxImportWorkspace: their method and path as `resolved` answers them); every failure a
 * CliFailure.
 */
export async function transferRequest(
  baseUrl: string,
  { method, path }: Pick<ResolvedCall, 'method' | 'path'>,
  body?: Buffer,
  /** the workspace's X-SVC-Workspace header, when one is named */
  scope: Record<string, string> = {},
): Promise<Buffer> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...controlHeaders(),
        ...scope,
        ...(body ? { 'content-type': 'application/octet-stream' } : {}),
      },
      ...(body ? { body: new Uint8Array(body) } : {}),
      signal: AbortSignal.timeout(300_000),
    });
  } catch (error) {
    if ((error as Error).name === 'TimeoutError')
      throw new CliFailure(`${method} ${path}: no answer from ${baseUrl} within 300 s`);
    throw new CliFailure(`no sandbox answering at ${baseUrl} (start one with: svc-sandbox serve)`);
  }
  const bytes = Buffer.from(await response.arrayBuffer());
  if (!response.ok) {
    let message = bytes.toString('utf8');
    try {
      const parsed = JSON.parse(message) as { error?: unknown };
      if (typeof parsed.error === 'string') message = parsed.error;
    } catch {}
    throw new CliFailure(`${method} ${path} failed: ${response.status} ${message}`.trim());
  }
  return bytes;
}
