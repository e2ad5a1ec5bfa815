import { writeFileSync } from 'node:fs';
import { clientFor, resolved } from './client.js';
import { COMMON_HELP, json, noExtra, out, parse, UsageError } from './common.js';
import { explained, transferRequest, withOfflineTransfer } from './transfer.js';

export const EXPORT_USAGE = `Usage: svc-sandbox export --out <bundle> [--merchant <id>] [--db <file> | --url <url>]

Writes the workspace (or one merchant and everything of theirs) to one bundle file: a SQLite file
made with SQLite's VACUUM INTO, with the clock and the webhook delivery history. Import it into
another sandbox with svc-sandbox import.

Options:
  --out <bundle>    the file to write (required)
  --merchant <id>   only this merchant (its reseller connections are left out: the other side is not in the file)
  --db <file>       read a sandbox database file directly (no sandbox may be running on it);
                    without --db, the running sandbox at --url is asked (GET /sandbox/export)
${COMMON_HELP}
Examples:
  svc-sandbox export --db ./svc-sandbox.db --out bug-1234.svcbundle
  svc-sandbox export --out acme.svcbundle --merchant 3f0c... --url http://127.0.0.1:4010
`;

const OPTIONS = {
  out: { type: 'string' },
  merchant: { type: 'string' },
  db: { type: 'string' },
} as const;

export async function exportCommand(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, OPTIONS);
  if (values.help) return 'help';
  noExtra(positionals, 1);
  const outPath = values.out as string | undefined;
  if (!outPath) throw new UsageError('--out <bundle> is required');
  const merchantId = values.merchant as string | undefined;
  const dbPath = values.db as string | undefined;
  if (dbPath !== undefined && values.url !== undefined) throw new UsageError('give --db or --url, not both');
  if (dbPath !== undefined && values.workspace !== undefined)
    throw new UsageError('--workspace names a workspace of a running sandbox: give --url, not --db');

  let bytes: Buffer;
  let source: string;
  if (dbPath !== undefined) {
    bytes = await withOfflineTransfer(dbPath, { mustExist: true }, (transfer) =>
      explained(async () => (await transfer.export({ merchantId })).bytes),
    );
    source = dbPath;
  } else {
    const client = clientFor(values);
    const url = client.baseUrl;
    bytes = await transferRequest(
      url,
      resolved('sandboxExportWorkspace', { query: merchantId ? { merchant_id: merchantId } : {} }),
      undefined,
      await client.workspaceHeaders(),
    );
    source = url;
  }
  writeFileSync(outPath, bytes);
  const what = merchantId ? `merchant ${merchantId}` : 'the workspace';
  if (values.json) json({ out: outPath, bytes: bytes.length, merchant_id: merchantId ?? null, from: source });
  else out(`exported ${what} from ${source} to ${outPath} (${bytes.length} bytes)`);
  return 0;
}
