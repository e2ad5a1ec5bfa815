import { type FormEvent, useEffect, useState } from 'react';
import type { KybStatus, Settings } from '../../api/types';
import { Card } from '../../components/Card';
import { ConfirmButton } from '../../components/ConfirmButton';
import { Field, Select, TextInput } from '../../components/Field';
import { chainName, formatMoney, statusLabel } from '../../components/format';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { useStore } from '../../store';
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

function ChainsCard({ settings }: { settings: Settings }) {
  return (
    <Card
      title="Chains and tokens"
      subtitle="What checkouts accept. Change the catalogue with PATCH /sandbox/settings (chains)."
      className="card-flush"
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
            </tr>
          </thead>
          <tbody>
            {settings.chains.flatMap((chain) =>
              chain.tokens.map((token) => (
                <tr key={`${chain.chain}/${token.name}`}>
                  <td>{chainName(chain.chain)}</td>
                  <td>{token.name}</td>
                  <td className="num">{token.min ? formatMoney(token.min, token.name) : 'None'}</td>
                  <td className="num">{token.max ? formatMoney(token.max, token.name) : 'None'}</td>
                  <td className="num">{formatMoney(token.gas_fee, token.name)}</td>
                </tr>
              )),
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
  return (
    <Card
      title="Reset workspace"
      subtitle="Deletes every merchant, key, resource, event and delivery in both environments and puts the clock back to real time. Settings stay."
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
