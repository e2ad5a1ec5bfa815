import { type FormEvent, Fragment, useState } from 'react';
import type { ResellerConnection } from '../../api/types';
import { Card } from '../../components/Card';
import { ConfirmButton } from '../../components/ConfirmButton';
import { Field, Select } from '../../components/Field';
import { StatusBadge } from '../../components/StatusBadge';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { formatTimestamp } from '../../lib/format';
import { useStore } from '../../store';
import { scopeKey } from '../../store/merchant-scope';
import { formatRate, merchantName } from '../../store/resellers';
import {
  CONNECTION_TONE,
  EMPTY_TERMS,
  formatCap,
  readTerms,
  TermsFields,
  type TermsText,
  termsTextOf,
} from './terms';

/** One empty list, so a selector returning it gives the same value each time. */
const NONE: ResellerConnection[] = [];

/** The connections of the scope on screen; null until they are read for it. */
const useConnections = (side: 'outgoing' | 'incoming') =>
  useStore((s) => (s.resellersScope === scopeKey(s) ? s[side] : null)) ?? null;

/** A merchant's name (its id in the title), and since when the connection exists. */
function MerchantCell({ id, since, testId }: { id: string; since: string; testId: string }) {
  const name = useStore((s) => merchantName(s, id));
  return (
    <td>
      <div className="strong" data-testid={testId} title={id}>
        {name}
      </div>
      <div className="muted small nowrap">Since {formatTimestamp(since)}</div>
    </td>
  );
}

/** Rate and caps, as the two tables show them. */
function TermsCells({ connection }: { connection: ResellerConnection }) {
  return (
    <>
      <td className="num nowrap" data-testid="connection-rate" data-rate={connection.rate}>
        {formatRate(connection.rate)}
      </td>
      <td className="num nowrap" data-testid="connection-min-fee" data-amount={connection.min_fee ?? ''}>
        {formatCap(connection.min_fee)}
      </td>
      <td className="num nowrap" data-testid="connection-max-fee" data-amount={connection.max_fee ?? ''}>
        {formatCap(connection.max_fee)}
      </td>
      <td>
        <StatusBadge
          status={connection.status}
          tone={CONNECTION_TONE[connection.status]}
          testId="connection-status"
        />
      </td>
    </>
  );
}

function TableHead({ who }: { who: string }) {
  return (
    <thead>
      <tr>
        <th>{who}</th>
        <th className="num">Rate</th>
        <th className="num">Min fee</th>
        <th className="num">Max fee</th>
        <th>Status</th>
        <th />
      </tr>
    </thead>
  );
}

function NewConnectionForm({ outgoing }: { outgoing: ResellerConnection[] }) {
  const createConnection = useStore((s) => s.createConnection);
  const merchants = useStore((s) => s.merchants);
  const self = useStore((s) => s.selectedMerchantId);
  const others = merchants.filter((m) => m.id !== self);
  const [target, setTarget] = useState('');
  const [terms, setTerms] = useState<TermsText>(EMPTY_TERMS);
  const [busy, run] = useBusy();
  // The pick stays valid across merchant switches: a merchant no longer in the list is no pick.
  const chosen = others.some((m) => m.id === target) ? target : '';
  const existing = outgoing.find((c) => c.merchant_id === chosen);
  const read = readTerms(terms);
  const valid = chosen !== '' && read.terms !== null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid || !read.terms) return;
    const ok = await run(() => createConnection({ merchant_id: chosen, ...read.terms! }));
    if (ok) {
      setTarget('');
      setTerms(EMPTY_TERMS);
    }
  };

  if (others.length === 0) {
    return (
      <p className="empty empty-inline" data-testid="connection-no-others">
        No other merchant to resell yet: <a href="#/merchants">create one</a> first.
      </p>
    );
  }
  return (
    <form className="form" onSubmit={submit} data-testid="connection-form">
      <div className="form form-inline">
        <Field label="Merchant to act for" grow>
          <Select value={chosen} onChange={setTarget} testId="connection-merchant-select">
            <option value="">Choose a merchant…</option>
            {others.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <TermsFields value={terms} onChange={setTerms} prefix="connection" />
      <div className="form-actions">
        <SubmitButton busy={busy} busyLabel="Connecting…" disabled={!valid} testId="connection-submit">
          {existing ? 'Update and reactivate' : 'Create connection'}
        </SubmitButton>
        {existing && (
          <span className="muted small" data-testid="connection-existing-note">
            Already {existing.status === 'active' ? 'connected' : 'revoked'}: these terms replace the old
            ones.
          </span>
        )}
      </div>
    </form>
  );
}

function EditTermsForm({ connection, onDone }: { connection: ResellerConnection; onDone: () => void }) {
  const updateConnection = useStore((s) => s.updateConnection);
  const [terms, setTerms] = useState<TermsText>(() => termsTextOf(connection));
  const [busy, run] = useBusy();
  const read = readTerms(terms);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!read.terms) return;
    // The form shows both caps: an emptied one is removed (null), not kept.
    if (await run(() => updateConnection(connection, read.terms!))) onDone();
  };

  return (
    <form className="form" onSubmit={submit} data-testid="connection-edit-form">
      <TermsFields value={terms} onChange={setTerms} prefix="connection-edit" />
      <div className="button-group">
        <SubmitButton busy={busy} busyLabel="Saving…" disabled={!read.terms} testId="connection-edit-submit">
          Save terms
        </SubmitButton>
        <button type="button" className="btn btn-ghost" onClick={onDone} data-testid="connection-edit-cancel">
          Cancel
        </button>
      </div>
    </form>
  );
}

function OutgoingRow({
  connection,
  editing,
  onEdit,
}: {
  connection: ResellerConnection;
  editing: boolean;
  onEdit: (id: string | null) => void;
}) {
  const deleteConnection = useStore((s) => s.deleteConnection);
  const createConnection = useStore((s) => s.createConnection);
  const [busy, run] = useBusy();
  const active = connection.status === 'active';
  return (
    <Fragment>
      <tr
        className={editing ? 'row-open' : undefined}
        data-testid="outgoing-row"
        data-connection-id={connection.id}
        data-merchant-id={connection.merchant_id}
        data-status={connection.status}
      >
        <MerchantCell
          id={connection.merchant_id}
          since={connection.created_at}
          testId="connection-merchant"
        />
        <TermsCells connection={connection} />
        <td className="actions">
          {active ? (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              aria-expanded={editing}
              onClick={() => onEdit(editing ? null : connection.id)}
              data-testid="connection-edit"
            >
              Edit
            </button>
          ) : (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={busy}
              title="Create it again with the same terms"
              onClick={() =>
                void run(() =>
                  createConnection({
                    merchant_id: connection.merchant_id,
                    rate: connection.rate,
                    min_fee: connection.min_fee,
                    max_fee: connection.max_fee,
                  }),
                )
              }
              data-testid="connection-reactivate"
            >
              {busy ? 'Reconnecting…' : 'Reconnect'}
            </button>
          )}
          <ConfirmButton
            label="Delete"
            confirmLabel="Delete now"
            busyLabel="Deleting…"
            onConfirm={() => deleteConnection(connection)}
            testId="connection-delete"
          />
        </td>
      </tr>
      {editing && (
        <tr className="row-expanded">
          <td colSpan={6}>
            <EditTermsForm connection={connection} onDone={() => onEdit(null)} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}

/** This merchant as reseller: the merchants it acts for, and a form to connect to one more. */
export function OutgoingConnections() {
  const outgoing = useConnections('outgoing');
  const env = useStore((s) => s.env);
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <Card
      title="Merchants this merchant resells"
      subtitle={`Outgoing connections in ${env}: effective at once, no approval. The rate is taken from each checkout made on their behalf; fees are in that checkout’s currency.`}
      testId="outgoing-connections"
    >
      <NewConnectionForm outgoing={outgoing ?? NONE} />
      {outgoing === null ? (
        <p className="empty empty-inline list-below-form">Loading…</p>
      ) : outgoing.length === 0 ? (
        <p className="empty empty-inline list-below-form" data-testid="outgoing-empty">
          No outgoing connections in {env} yet.
        </p>
      ) : (
        <div className="table-wrap table-below-form">
          <table className="table" data-testid="outgoing-table">
            <TableHead who="Merchant" />
            <tbody>
              {outgoing.map((connection) => (
                <OutgoingRow
                  key={connection.id}
                  connection={connection}
                  editing={editing === connection.id}
                  onEdit={setEditing}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

/** Others reselling this merchant: their terms, and the merchant's switch to cut them off. */
export function IncomingConnections() {
  const incoming = useConnections('incoming');
  const revokeConnection = useStore((s) => s.revokeConnection);
  const env = useStore((s) => s.env);
  return (
    <Card
      title="Resellers of this merchant"
      subtitle={`Incoming connections in ${env}: who may create checkouts for this merchant, and their cut (in each checkout’s currency).`}
      testId="incoming-connections"
    >
      {incoming === null ? (
        <p className="empty empty-inline">Loading…</p>
      ) : incoming.length === 0 ? (
        <p className="empty empty-inline" data-testid="incoming-empty">
          No reseller acts for this merchant in {env}.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="incoming-table">
            <TableHead who="Reseller" />
            <tbody>
              {incoming.map((connection) => (
                <tr
                  key={connection.id}
                  data-testid="incoming-row"
                  data-connection-id={connection.id}
                  data-reseller-id={connection.reseller_id}
                  data-status={connection.status}
                >
                  <MerchantCell
                    id={connection.reseller_id}
                    since={connection.created_at}
                    testId="connection-reseller"
                  />
                  <TermsCells connection={connection} />
                  <td className="actions">
                    {connection.status === 'active' && (
                      <ConfirmButton
                        label="Revoke"
                        confirmLabel="Revoke now"
                        busyLabel="Revoking…"
                        onConfirm={() => revokeConnection(connection)}
                        testId="connection-revoke"
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
