import { type Static, Type } from 'typebox';
import { Nullable, Uuid } from './common.js';

/** GET /sandbox/export: the whole workspace, or one merchant and everything of theirs. */
export const ExportQuery = Type.Object({ merchant_id: Type.Optional(Uuid) });
export type ExportQuery = Static<typeof ExportQuery>;

/** The bundle file as the document describes it (a SQLite file; `svc_bundle` says what it is). */
export const BundleFile = Type.Unsafe<Uint8Array>({
  type: 'string',
  format: 'binary',
  description:
    'A workspace bundle: a SQLite database file (made with VACUUM INTO) with a `svc_bundle` ' +
    'table: format, format_version, schema_version (the migration number), exported_at (sandbox time), ' +
    'app_version, merchant_id (null for the whole workspace).',
});

const Count = Type.Integer({ minimum: 0 });

/** POST /sandbox/import: what the workspace now holds, and where the bundle came from. */
export const ImportResult = Type.Object({
  imported: Type.Object({
    merchants: Count,
    api_keys: Count,
    customers: Count,
    checkouts: Count,
    invoices: Count,
    refunds: Count,
    cardholders: Count,
    cards: Count,
    card_transactions: Count,
    reseller_connections: Count,
    webhook_endpoints: Count,
    webhook_deliveries: Count,
    events: Count,
  }),
  bundle: Type.Object({
    /** the schema version the bundle was made at */
    schema_version: Count,
    /** the schema version of the data now (an older bundle was migrated up to it) */
    migrated_to: Count,
    exported_at: Type.String(),
    app_version: Type.String(),
    merchant_id: Nullable(Type.String()),
  }),
  reissued_keys: Type.Array(
    Type.Object({ merchant_id: Type.String(), api_key_id: Type.String(), key: Type.String() }),
    {
      description:
        'Keys of the bundle that another workspace of this sandbox already holds (a bundle imported ' +
        'beside the workspace it came from): each got a new key here, so that a key finds exactly one ' +
        'workspace. Use these to reach the imported merchants; the old keys keep acting where they were.',
    },
  ),
});
export type ImportResult = Static<typeof ImportResult>;

/** GET /sandbox/contents: what the workspace holds, counted as an import counts (what an import replaces). */
export const WorkspaceContents = ImportResult.properties.imported;
export type WorkspaceContents = Static<typeof WorkspaceContents>;
