import { type FormEvent, useState } from 'react';
import type { ProvisionBody, ProvisionResult } from '../../api/types';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { Field, Select, TextInput } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { useStore } from '../../store';
import { scopeKey } from '../../store/merchant-scope';
import { EMPTY_TERMS, readTerms, TermsFields, type TermsText } from './terms';

type BusinessType = NonNullable<ProvisionBody['btype']>;

interface Form {
  email: string;
  password: string;
  merchantName: string;
  legalName: string;
  country: string;
  btype: BusinessType;
}

const EMPTY: Form = {
  email: '',
  password: '',
  merchantName: '',
  legalName: '',
  country: '',
  btype: 'company',
};

function Provisioned({ result }: { result: ProvisionResult }) {
  return (
    <div className="card-section result" data-testid="provision-result">
      <p>
        <span className="strong" data-testid="provision-result-name">
          {result.merchant.name}
        </span>{' '}
        <span className="muted">
          ({result.merchant.legal_name}, {result.merchant.country}) is provisioned, KYB{' '}
          {result.merchant.kyb_status}.
        </span>
      </p>
      <div className="field">
        <span className="field-label">Merchant id</span>
        <div className="key-cell">
          <code className="mono key-value" data-testid="provision-merchant-id">
            {result.merchant.id}
          </code>
          <CopyButton value={result.merchant.id} testId="provision-merchant-id-copy" />
        </div>
      </div>
      <div className="field">
        <span className="field-label">Connection id</span>
        <div className="key-cell">
          <code className="mono key-value" data-testid="provision-connection-id">
            {result.connection_id}
          </code>
          <CopyButton value={result.connection_id} testId="provision-connection-id-copy" />
        </div>
      </div>
    </div>
  );
}

function ProvisionFields() {
  const provisionMerchant = useStore((s) => s.provisionMerchant);
  const [form, setForm] = useState<Form>(EMPTY);
  const [terms, setTerms] = useState<TermsText>(EMPTY_TERMS);
  const [busy, run] = useBusy();
  const read = readTerms(terms);
  const edit = (field: keyof Form) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const valid =
    form.email.trim() !== '' &&
    form.password.length >= 6 &&
    form.merchantName.trim() !== '' &&
    form.legalName.trim() !== '' &&
    /^[A-Z]{2}$/.test(form.country) &&
    read.terms !== null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid || !read.terms) return;
    const { rate, min_fee, max_fee } = read.terms;
    const ok = await run(() =>
      provisionMerchant({
        email: form.email.trim(),
        password: form.password,
        merchant_name: form.merchantName.trim(),
        legal_name: form.legalName.trim(),
        country: form.country,
        btype: form.btype,
        rate,
        ...(min_fee === null ? {} : { min_fee }),
        ...(max_fee === null ? {} : { max_fee }),
      }),
    );
    if (ok) {
      setForm(EMPTY);
      setTerms(EMPTY_TERMS);
    }
  };

  return (
    <form className="form" onSubmit={submit} data-testid="provision-form">
      <div className="form form-inline">
        <Field label="Owner email" grow>
          <TextInput
            type="email"
            value={form.email}
            onChange={edit('email')}
            placeholder="owner@shop.example"
            required
            testId="provision-email-input"
          />
        </Field>
        <Field label="Password" grow>
          <TextInput
            type="password"
            value={form.password}
            onChange={edit('password')}
            placeholder="At least 6 characters"
            minLength={6}
            autoComplete="new-password"
            required
            testId="provision-password-input"
          />
        </Field>
      </div>
      <div className="form form-inline">
        <Field label="Merchant name" grow>
          <TextInput
            value={form.merchantName}
            onChange={edit('merchantName')}
            placeholder="Corner Shop"
            maxLength={200}
            required
            testId="provision-merchant-name-input"
          />
        </Field>
        <Field label="Legal name" grow>
          <TextInput
            value={form.legalName}
            onChange={edit('legalName')}
            placeholder="Corner Shop Ltd"
            maxLength={200}
            required
            testId="provision-legal-name-input"
          />
        </Field>
      </div>
      <div className="form form-inline">
        <Field label="Country">
          <input
            className="input input-narrow"
            value={form.country}
            onChange={(e) => edit('country')(e.target.value.toUpperCase().replace(/[^A-Z]/g, ''))}
            placeholder="GB"
            maxLength={2}
            aria-invalid={form.country !== '' && form.country.length !== 2}
            title="ISO 3166-1 alpha-2 code: GB, DE, US…"
            required
            data-testid="provision-country-input"
          />
        </Field>
        <Field label="Business type" grow>
          <Select value={form.btype} onChange={edit('btype')} testId="provision-btype-select">
            <option value="company">Company</option>
            <option value="individual">Individual</option>
          </Select>
        </Field>
      </div>
      <TermsFields value={terms} onChange={setTerms} prefix="provision" />
      <div>
        <SubmitButton busy={busy} busyLabel="Provisioning…" disabled={!valid} testId="provision-submit">
          Provision merchant
        </SubmitButton>
      </div>
    </form>
  );
}

/**
 * A new merchant (draft KYB), its owner user and an active connection to it, in one step. The
 * server offers it on the production address only; on test the card says so.
 */
export function ProvisionForm() {
  const env = useStore((s) => s.env);
  const setEnv = useStore((s) => s.setEnv);
  const kyb = useStore((s) => s.merchants.find((m) => m.id === s.selectedMerchantId)?.kyb_status);
  const result = useStore((s) =>
    s.provisioned && s.provisioned.scope === scopeKey(s) ? s.provisioned.value : null,
  );
  return (
    <Card
      title="Provision a merchant"
      subtitle="Sign up a new merchant with its owner’s login, connected to this reseller at once."
      testId="provision"
    >
      {env !== 'production' ? (
        <div className="form" data-testid="provision-production-only">
          <p className="muted">
            Provisioning is production-only: the server refuses it on the test address. Switch the environment
            to Production to provision merchants.
          </p>
          <div>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => setEnv('production')}
              data-testid="provision-switch-production"
            >
              Switch to Production
            </button>
          </div>
        </div>
      ) : (
        <>
          {kyb && kyb !== 'approved' && (
            <p className="field-error" data-testid="provision-kyb-note">
              This merchant’s KYB is {kyb}: only a reseller with approved KYB may provision.
            </p>
          )}
          <ProvisionFields />
        </>
      )}
      {result && <Provisioned result={result} />}
    </Card>
  );
}
