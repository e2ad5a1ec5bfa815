import { existsSync, readFileSync } from 'node:fs';
import type { ImportResult } from '../contract/transfer.js';
import { clientFor, resolved } from './client.js';
import { CliFailure, COMMON_HELP, json, noExtra, out, parse, UsageError } from './common.js';
import { explained, transferRequest, withOfflineTransfer } from './transfer.js';
import { reissuedLines } from './workspaces.js';

export const IMPORT_USAGE = `Usage: svc-sandbox import <bundle> [--db <file> | --url <url>]

Replaces the whole workspace with the bundle's (made by svc-sandbox export or GET /sandbox/export):
merchants, keys, every resource, events, webhook deliveries with their attempts, the request log,
settings and the clock. A bundle from an older svc-sandbox is migrated on the way in. A corrupt,
foreign or newer file is refused (exit 1) and nothing changes.

Options:
  --db <file>       write into a sandbox database file directly (created if absent; no sandbox may
                    be running on it); without --db, the running sandbox at --url imports it
                    (POST /sandbox/import)
${COMMON_HELP}
Examples:
  svc-sandbox import --db ./svc-sandbox.db bug-1234.svcbundle
  svc-sandbox import bug-1234.svcbundle --url http://127.0.0.1:4010
`;

export async function importCommand(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, { db: { type: 'string' } });
  if (values.help) return 'help';
  const bundlePath = positionals[1];
  if (bundlePath === undefined) throw new UsageError('missing the bundle file to import');
  noExtra(positionals, 2);
  const dbPath = values.db as string | undefined;
  if (dbPath !== undefined && values.url !== undefined) throw new UsageError('give --db or --url, not both');
  if (dbPath !== undefined && values.workspace !== undefined)
    throw new UsageError('--workspace names a workspace of a running sandbox: give --url, not --db');
  if (!existsSync(bundlePath)) throw new CliFailure(`no bundle file at ${bundlePath}`);
  const bytes = readFileSync(bundlePath);

  let result: ImportResult;
  let target: string;
  if (dbPath !== undefined) {
    result = await withOfflineTransfer(dbPath, { mustExist: false }, (transfer) =>
      explained(() => transfer.import(bytes)),
    );
    target = dbPath;
  } else {
    const client = clientFor(values);
    const url = client.baseUrl;
    const answer = await transferRequest(
      url,
      resolved('sandboxImportWorkspace'),
      bytes,
      await client.workspaceHeaders(),
    );
    result = JSON.parse(answer.toString('utf8')) as ImportResult;
    target = url;
  }
  if (values.json) {
    json(result);
    return 0;
  }
  const { imported, bundle } = result;
  const migrated =
    bundle.schema_version === bundle.migrated_to
      ? ''
      : `, migrated from schema ${bundle.schema_version} to ${bundle.migrated_to}`;
  out(
    `imported ${bundlePath} into ${target}${migrated}: ${imported.merchants} merchant(s), ` +
      `${imported.checkouts} checkout(s), ${imported.cards} card(s), ${imported.webhook_deliveries} webhook ` +
      `deliveries, ${imported.events} events (exported ${bundle.exported_at} by svc-sandbox ${bundle.app_version})`,
  );
  for (const line of reissuedLines(result.reissued_keys)) out(line);
  return 0;
}
