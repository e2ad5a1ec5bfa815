import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Compile } from 'typebox/compile';
import { Settings } from '../contract/settings.js';
import type { ImportResult, WorkspaceContents } from '../contract/transfer.js';
import {
  BUNDLE_FORMAT,
  BUNDLE_FORMAT_VERSION,
  type BundleMeta,
  BundleRefused,
  copyTo,
  merchantExists,
  prepareBundle,
  replaceWorkspace,
  schemaVersion,
  sealBundle,
} from '../db/bundle.js';
import type { Db } from '../db/connection.js';
import { DEFAULT_SETTINGS } from '../domain/settings/defaults.js';
import { BusinessRuleError, NotFoundError } from '../errors.js';
import type { StoredRequestLogRow } from '../request-log/rows.js';

export { type BundleMeta, BundleRefused, type ImportResult };

/** A refused bundle as the API answers it: a 400 saying why; nothing was changed. */
export class BundleError extends BusinessRuleError {
  constructor(readonly refused: BundleRefused) {
    super(refused.message);
  }
}

export interface TransferDeps {
  db: Db;
  /** sandbox time, stamped into the bundle as exported_at */
  nowIso: () => string;
  appVersion: string;
  /** Live sandbox: lets work in flight finish (webhook sends) before the workspace is replaced. */
  quiesce?: () => Promise<void>;
  /** Live sandbox: commits the open group-commit batch, so the backup and the copy see every acknowledged write. */
  commitPending?: () => void;
  /** The request log (kept apart from the workspace database): its rows go into the bundle. */
  requestLog?: { dump(): StoredRequestLogRow[] } | undefined;
  /** Live sandbox: just before the rows are replaced. */
  beforeReplace?: () => void;
  /** Live sandbox: after the rows are replaced (reload the clock and settings, clear caches, wake the scheduler). */
  afterReplace?: () => void;
  /** Live sandbox: new keys for the imported keys another of its workspaces holds (returned). */
  rekey?: () => ImportResult['reissued_keys'];
}

export interface ExportOptions {
  /** Only this merchant and everything of theirs (default: the whole workspace). */
  merchantId?: string | undefined;
}

export interface ExportedBundle {
  bytes: Buffer;
  meta: BundleMeta;
}

const COUNTED = [
  'merchants',
  'api_keys',
  'customers',
  'checkouts',
  'invoices',
  'refunds',
  'cardholders',
  'cards',
  'card_transactions',
  'reseller_connections',
  'webhook_endpoints',
  'webhook_deliveries',
  'events',
] as const;

// Compiled on the first import, not at start-up (every start loads this module).
const settingsValidator = () => Compile(Settings);
let compiledSettingsCheck: ReturnType<typeof settingsValidator> | undefined;

/** The settings and the clock state the bundle brings must be ones this sandbox can run with. */
function checkSingletons(kv: Record<string, unknown>): void {
  const settings = kv.settings;
  if (settings !== undefined) {
    compiledSettingsCheck ??= settingsValidator();
    const settingsCheck = compiledSettingsCheck;
    const merged = { ...DEFAULT_SETTINGS, ...(settings as object) };
    if (typeof settings !== 'object' || settings === null || !settingsCheck.Check(merged)) {
      const first = typeof settings === 'object' ? settingsCheck.Errors(merged)[0] : undefined;
      throw new BundleRefused(
        'corrupt',
        `the bundle is damaged: its settings are not valid${first ? ` (${first.instancePath || '/'} ${first.message})` : ''}`,
      );
    }
  }
  const clock = kv.clock as { offsetMs?: unknown; frozenAt?: unknown } | undefined;
  if (
    clock !== undefined &&
    (typeof clock !== 'object' ||
      clock === null ||
      !Number.isFinite(clock.offsetMs) ||
      !(clock.frozenAt === null || Number.isFinite(clock.frozenAt)))
  )
    throw new BundleRefused('corrupt', 'the bundle is damaged: its clock state is not {offsetMs, frozenAt}');
}

/** Largest bundle accepted on import (the request log alone can hold a few hundred MB). */
export const MAX_BUNDLE_BYTES = 1024 * 1024 * 1024;

/**
 * Export and import of a workspace as one bundle file (a SQLite file; server/db/bundle.ts).
 * Export is a consistent copy (`VACUUM INTO`, right after a commit), optionally cut down to one
 * merchant. Import checks the file on a private copy (header, integrity, marker, schema version,
 * migrations), migrates an older one, then replaces every row of the workspace in one transaction: a
 * refused or failing import changes nothing. Works on a live sandbox (with the hooks) and on a database file opened offline (CLI).
 */
export class WorkspaceTransfer {
  constructor(private readonly deps: TransferDeps) {}

  /** What the workspace holds now, counted as an import counts a bundle: what an import would replace. */
  contents(): WorkspaceContents {
    return Object.fromEntries(
      COUNTED.map((table) => [
        table,
        (this.deps.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n,
      ]),
    ) as WorkspaceContents;
  }

  async export(options: ExportOptions = {}): Promise<ExportedBundle> {
    const merchantId = options.merchantId ?? null;
    if (merchantId !== null && !merchantExists(this.deps.db, merchantId))
      throw new NotFoundError('Merchant', merchantId);
    return this.withTempDir(async (dir) => {
      const path = join(dir, 'bundle.sqlite');
      // Commit and copy in one synchronous stretch: nothing can open a transaction in between.
      this.deps.commitPending?.();
      copyTo(this.deps.db, path);
      const requestLog = this.deps.requestLog?.dump() ?? [];
      const meta: BundleMeta = {
        format: BUNDLE_FORMAT,
        format_version: BUNDLE_FORMAT_VERSION,
        schema_version: schemaVersion(this.deps.db),
        exported_at: this.deps.nowIso(),
        app_version: this.deps.appVersion,
        merchant_id: merchantId,
      };
      sealBundle(path, meta, requestLog);
      return { bytes: readFileSync(path), meta };
    });
  }

  async import(bytes: Buffer): Promise<ImportResult> {
    if (bytes.length > MAX_BUNDLE_BYTES)
      throw new BundleError(
        new BundleRefused('corrupt', `the bundle is larger than ${MAX_BUNDLE_BYTES} bytes`),
      );
    return this.withTempDir(async (dir) => {
      const path = join(dir, 'import.sqlite');
      writeFileSync(path, bytes);
      let prepared: ReturnType<typeof prepareBundle>;
      try {
        prepared = prepareBundle(path);
        checkSingletons(prepared.kv);
      } catch (error) {
        if (error instanceof BundleRefused) throw new BundleError(error);
        throw error;
      }
      await this.deps.quiesce?.();
      // From here to the end, synchronous: nothing else runs between the checks and the copy.
      this.deps.commitPending?.();
      this.deps.beforeReplace?.();
      let counts: Record<string, number>;
      try {
        counts = replaceWorkspace(this.deps.db, path);
      } catch (error) {
        if (error instanceof BundleRefused) throw new BundleError(error);
        throw error;
      }
      this.deps.afterReplace?.();
      const reissued = this.deps.rekey?.() ?? [];
      const imported = Object.fromEntries(
        COUNTED.map((t) => [t, counts[t] ?? 0]),
      ) as ImportResult['imported'];
      const { meta } = prepared;
      return {
        imported,
        bundle: {
          schema_version: meta.schema_version,
          migrated_to: schemaVersion(this.deps.db),
          exported_at: meta.exported_at,
          app_version: meta.app_version,
          merchant_id: meta.merchant_id,
        },
        reissued_keys: reissued,
      };
    });
  }

  private async withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
    const dir = mkdtempSync(join(tmpdir(), 'svc-sandbox-bundle-'));
    try {
      return await fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
