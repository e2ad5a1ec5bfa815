import { type FormEvent, useEffect, useState } from 'react';
import type { ChainToken, KybStatus, Settings } from '../../api/types';
import { Card } from '../../components/Card';
import { ConfirmButton } from '../../components/ConfirmButton';
import { AmountInput, Field, Select, TextInput } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { chainName, formatAmount, formatMoney, parseAmount, statusLabel } from '../../lib/format';
import { useStore } from '../../store';
import { currentWorkspace } from '../../store/workspaces';
import { DELAY_UNITS, formFromSettings, type SettingsForm, validateSettings } from './validate';

function FieldError({ message, testId }: { message: string | undefined; testId: string }) {
  return message ? (
    <span className="field-error" role="alert" data-testid={testId}>
      {message}
    </span>
  ) : null;
}

function SettingsEditor({ settings }: { settings: Settings }) {
  const saveSettings = useStore((s) => s.saveSettings);
  const [form, setForm] = useState<SettingsForm>(() => formFromSettings(settings));
  const [errors, setErrors] = useState<Partial<Record<keyof SettingsForm, string>>>({});
  const [busy, run] = useBusy();
  // A change made elsewhere (a script, another window) shows here unless this form is being edited.
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    if (!dirty) setForm(formFromSettings(settings));
  }, [settings, dirty]);

  const edit =
    <K extends keyof SettingsForm>(key: K) =>
    (value: SettingsForm[K]) => {
      setDirty(true);
      setForm((f) => ({ ...f, [key]: value }));
      setErrors((e) => ({ ...e, [key]: undefined }));
    };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateSettings(form);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    void run(async () => {
      const saved = await saveSettings(checked.patch);
      if (saved) setDirty(false);
      return saved;
    });
  };

  return (
    <form className="form settings-form" onSubmit={submit} noValidate data-testid="settings-form">
      <div className="form-grid">
        <Field label="Platform rate (%)">
          <TextInput
            value={form.platformRate}
            onChange={edit('platformRate')}
            inputMode="decimal"
            aria-invalid={Boolean(errors.platformRate)}
            testId="settings-platform-rate"
          />
          <span className="field-hint">Kept by the platform from each paid checkout.</span>
          <FieldError message={errors.platformRate} testId="settings-platform-rate-error" />
        </Field>
        <Field label="Settlement delay">
          <span className="input-group">
            <TextInput
              value={form.settlementDelay}
              onChange={edit('settlementDelay')}
              inputMode="numeric"
              aria-invalid={Boolean(errors.settlementDelay)}
              testId="settings-settlement-delay"
            />
            <Select
              value={form.settlementUnit}
              onChange={(v) => edit('settlementUnit')(v as SettingsForm['settlementUnit'])}
              testId="settings-settlement-unit"
            >
              {Object.keys(DELAY_UNITS).map((unit) => (
                <option key={unit} value={unit}>
                  {unit}
                </option>
              ))}
            </Select>
          </span>
          <span className="field-hint">From payment to completed (the spec’s ~60 s).</span>
          <FieldError message={errors.settlementDelay} testId="settings-settlement-delay-error" />
        </Field>
        <Field label="Card application review">
          <Select
            value={form.applicationReview}
            onChange={(v) => edit('applicationReview')(v as SettingsForm['applicationReview'])}
            testId="settings-application-review"
          >
            <option value="auto">Automatic (approved at once)</option>
            <option value="manual">Manual (pending until you decide)</option>
          </Select>
        </Field>
        <Field label="Webhook timeout (seconds)">
          <TextInput
            value={form.webhookTimeout}
            onChange={edit('webhookTimeout')}
            inputMode="decimal"
            aria-invalid={Boolean(errors.webhookTimeout)}
            testId="settings-webhook-timeout"
          />
          <FieldError message={errors.webhookTimeout} testId="settings-webhook-timeout-error" />
        </Field>
        <Field label="Rate limit (requests per minute per key)">
          <TextInput
            value={form.rateLimit}
            onChange={edit('rateLimit')}
            inputMode="numeric"
            aria-invalid={Boolean(errors.rateLimit)}
            testId="settings-rate-limit"
          />
          <span className="field-hint">0 turns it off.</span>
          <FieldError message={errors.rateLimit} testId="settings-rate-limit-error" />
        </Field>
        <Field label="Concurrent requests per key">
          <TextInput
            value={form.concurrencyLimit}
            onChange={edit('concurrencyLimit')}
            inputMode="numeric"
            aria-invalid={Boolean(errors.concurrencyLimit)}
            testId="settings-concurrency-limit"
          />
          <span className="field-hint">0 turns it off.</span>
          <FieldError message={errors.concurrencyLimit} testId="settings-concurrency-limit-error" />
        </Field>
      </div>
      <div className="form-actions">
        <SubmitButton busy={busy} busyLabel="Saving…" testId="settings-save">
          Save settings
        </SubmitButton>
      </div>
    </form>
  );
}

/** "" or "0" → 0 (none); "12.5" → 12_500_000; null when not an amount. */
const limitAmount = (text: string): number | null =>
  text.trim() === '' || /^\s*0*([.,]0*)?\s*$/.test(text) ? 0 : parseAmount(text);

function TokenEditor({
  settings,
  chain,
  token,
  onDone,
}: {
  settings: Settings;
  chain: string;
  token: ChainToken;
  onDone: () => void;
}) {
  const saveSettings = useStore((s) => s.saveSettings);
  const show = (minor: number) => (minor ? formatAmount(minor).replace(/,/g, '') : '');
  const [min, setMin] = useState(show(token.min));
  const [max, setMax] = useState(show(token.max));
  const [gas, setGas] = useState(show(token.gas_fee));
  const [error, setError] = useState<string | null>(null);
  const [busy, run] = useBusy();

  const save = () => {
    const [minUnits, maxUnits, gasUnits] = [limitAmount(min), limitAmount(max), limitAmount(gas)];
    if (minUnits === null || maxUnits === null || gasUnits === null) {
      setError(`Enter amounts in ${token.name}, e.g. 12.50 (at most 6 decimals); leave blank for none.`);
      return;
    }
    if (minUnits > 0 && maxUnits > 0 && minUnits > maxUnits) {
      setError(
        `The minimum (${formatMoney(minUnits, token.name)}) is above the maximum (${formatMoney(maxUnits, token.name)}).`,
      );
      return;
    }
    const values = { min: minUnits, max: maxUnits, gas_fee: gasUnits };
    const chains = settings.chains.map((c) =>
      c.chain !== chain
        ? c
        : { ...c, tokens: c.tokens.map((t) => (t.name === token.name ? { ...t, ...values } : t)) },
    );
    void run(async () => {
      const saved = await saveSettings({ chains });
      if (saved) onDone();
      return saved;
    });
  };

  return (
    <tr data-testid="token-editor">
      <td>{chainName(chain)}</td>
      <td>{token.name}</td>
      <td className="num">
        <AmountInput value={min} onChange={setMin} placeholder="None" compact testId="token-min" />
      </td>
      <td className="num">
        <AmountInput value={max} onChange={setMax} placeholder="None" compact testId="token-max" />
      </td>
      <td className="num">
        <AmountInput value={gas} onChange={setGas} placeholder="0" compact testId="token-gas" />
        {error && (
          <span className="field-error" role="alert" data-testid="token-error">
            {error}
          </span>
        )}
      </td>
      <td className="nowrap">
        <button
          type="button"
          className="btn btn-primary btn-sm"
          disabled={busy}
          onClick={save}
          data-testid="token-save"
        >
          Save
        </button>{' '}
        <button type="button" className="btn btn-ghost btn-sm" onClick={onDone} data-testid="token-cancel">
          Cancel
        </button>
      </td>
    </tr>
  );
}

function ChainsCard({ settings }: { settings: Settings }) {
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <Card
      title="Chains and tokens"
      subtitle="What crypto checkouts accept: limits and the gas fee per token, in the token’s units."
      testId="settings-chains"
    >
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>Chain</th>
              <th>Token</th>
              <th className="num">Minimum</th>
              <th className="num">Maximum</th>
              <th className="num">Gas fee</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {settings.chains.flatMap((chain) =>
              chain.tokens.map((token) => {
                const key = `${chain.chain}/${token.name}`;
                return editing === key ? (
                  <TokenEditor
                    key={key}
                    settings={settings}
                    chain={chain.chain}
                    token={token}
                    onDone={() => setEditing(null)}
                  />
                ) : (
                  <tr key={key} data-testid="token-row" data-token={key}>
                    <td>{chainName(chain.chain)}</td>
                    <td>{token.name}</td>
                    <td className="num">{token.min ? formatMoney(token.min, token.name) : 'None'}</td>
                    <td className="num">{token.max ? formatMoney(token.max, token.name) : 'None'}</td>
                    <td className="num">{formatMoney(token.gas_fee, token.name)}</td>
                    <td>
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm"
                        onClick={() => setEditing(key)}
                        data-testid="token-edit"
                      >
                        Edit
                      </button>
                    </td>
                  </tr>
                );
              }),
            )}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

const KYB: KybStatus[] = ['draft', 'pending', 'approved', 'rejected'];

function MerchantKyb() {
  const merchant = useStore((s) => s.merchants.find((m) => m.id === s.selectedMerchantId));
  const setKybStatus = useStore((s) => s.setKybStatus);
  return (
    <Card
      title="Merchant KYB"
      subtitle="The business verification status of the selected merchant."
      testId="settings-kyb"
    >
      {merchant ? (
        <Field label={`KYB status of ${merchant.name}`}>
          <Select
            value={merchant.kyb_status}
            onChange={(value) => void setKybStatus(merchant.id, value as KybStatus)}
            testId="settings-kyb-status"
          >
            {KYB.map((status) => (
              <option key={status} value={status}>
                {statusLabel(status)}
              </option>
            ))}
          </Select>
        </Field>
      ) : (
        <p className="empty">
          No merchant yet. <a href="#/merchants">Create one</a>.
        </p>
      )}
    </Card>
  );
}

function ResetCard() {
  const resetWorkspace = useStore((s) => s.resetWorkspace);
  const name = useStore((s) => currentWorkspace(s)?.name);
  return (
    <Card
      title="Reset workspace"
      subtitle={`Deletes every merchant, key, resource, event and delivery of ${name ? `“${name}”` : 'this workspace'} in both environments and puts its clock back to real time. Settings and other workspaces stay.`}
      testId="settings-reset"
    >
      <ConfirmButton
        label="Reset workspace…"
        confirmLabel="Yes, delete everything"
        busyLabel="Resetting…"
        onConfirm={resetWorkspace}
        testId="workspace-reset"
      />
    </Card>
  );
}

export function SettingsPage() {
  const settings = useStore((s) => s.settings);
  return (
    <div className="grid-settings">
      <div className="stack">
        <Card
          title="Sandbox settings"
          subtitle="Apply to both environments, from the next request on."
          testId="settings"
        >
          {settings ? <SettingsEditor settings={settings} /> : <p className="empty">Loading settings…</p>}
        </Card>
        {settings && <ChainsCard settings={settings} />}
      </div>
      <div className="stack">
        <MerchantKyb />
        <ResetCard />
      </div>
    </div>
  );
}
