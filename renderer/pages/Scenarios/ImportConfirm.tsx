import { useEffect, useState } from 'react';
import { workspaceContents } from '../../api/scenarios';
import './import-confirm.css';
import type { WorkspaceContents } from '../../../server/contract/transfer.js';

/** What the workspace holds, in words, the largest parts first: "3 merchants, 120 checkouts, …". */
export function contentsInWords(contents: WorkspaceContents): string {
  const WORDS: [keyof WorkspaceContents, string, string][] = [
    ['merchants', 'merchant', 'merchants'],
    ['checkouts', 'checkout', 'checkouts'],
    ['customers', 'customer', 'customers'],
    ['invoices', 'invoice', 'invoices'],
    ['refunds', 'refund', 'refunds'],
    ['cardholders', 'cardholder', 'cardholders'],
    ['cards', 'card', 'cards'],
    ['card_transactions', 'card transaction', 'card transactions'],
    ['webhook_endpoints', 'webhook endpoint', 'webhook endpoints'],
    ['webhook_deliveries', 'delivery', 'deliveries'],
    ['events', 'event', 'events'],
  ];
  const parts = WORDS.filter(([key]) => contents[key] > 0).map(
    ([key, one, many]) => `${contents[key]} ${contents[key] === 1 ? one : many}`,
  );
  return parts.length === 0 ? 'nothing' : parts.join(', ');
}

/**
 * Asks before an import replaces the workspace, naming what it holds now (GET /sandbox/contents):
 * the import cannot be undone, short of exporting first.
 */
export function ImportConfirm({
  file,
  busy,
  onConfirm,
  onCancel,
}: {
  file: File;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const [contents, setContents] = useState<WorkspaceContents | null | 'unknown'>(null);
  useEffect(() => {
    let live = true;
    workspaceContents().then(
      (answer) => live && setContents(answer),
      () => live && setContents('unknown'),
    );
    return () => {
      live = false;
    };
  }, []);
  const what = contents === null ? '…' : contents === 'unknown' ? 'everything' : contentsInWords(contents);
  return (
    <div
      className="import-confirm"
      role="alertdialog"
      aria-label="Replace this workspace?"
      data-testid="import-confirm"
    >
      <p data-testid="import-confirm-text">
        Replace <strong>{what}</strong> in this workspace with the contents of{' '}
        <code className="mono">{file.name}</code>? This cannot be undone: export first to keep them.
      </p>
      <div className="button-group">
        <button
          type="button"
          className="btn btn-danger"
          disabled={busy || contents === null}
          onClick={onConfirm}
          data-testid="import-confirm-replace"
        >
          {busy ? 'Importing…' : 'Replace workspace'}
        </button>
        <button
          type="button"
          className="btn btn-ghost"
          disabled={busy}
          onClick={onCancel}
          data-testid="import-confirm-cancel"
        >
          Cancel
        </button>
      </div>
    </div>
  );
}
