import { type FormEvent, useState } from 'react';
import type { CardApplication, CardProduct } from '../../api/types';
import { Breakable } from '../../components/Breakable';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { AmountInput, Field, Select } from '../../components/Field';
import { Private } from '../../components/Private';
import { StatusBadge } from '../../components/StatusBadge';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { describeStatus, formatAmount, formatMoney, parseAmount } from '../../lib/format';
import { useStore } from '../../store';
import { CardList } from './CardList';
import { CardNetwork } from './CardNetwork';
import { CardSecrets } from './CardSecrets';
import { APPLICATION_TONE, KYC_TONE } from './status';

function FundForm() {
  const fundCardholder = useStore((s) => s.fundCardholder);
  const balances = useStore((s) => s.businessBalances);
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState('USDC');
  const available = balances.find((b) => b.currency === currency)?.available ?? 0;
  const [busy, run] = useBusy();
  const minor = parseAmount(amount);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (minor !== null && (await run(() => fundCardholder(minor, currency)))) setAmount('');
  };

  return (
    <form className="form form-inline" onSubmit={submit} data-testid="fund-form">
      <Field label="Fund from the business wallet">
        <AmountInput
          compact
          value={amount}
          onChange={setAmount}
          placeholder="100.00"
          testId="fund-amount-input"
        />
      </Field>
      <Field label="Currency">
        <Select value={currency} onChange={setCurrency} testId="fund-currency-select">
          <option value="USDC">USDC</option>
          <option value="USDT">USDT</option>
        </Select>
      </Field>
      <SubmitButton
        variant="secondary"
        busy={busy}
        busyLabel="Funding…"
        disabled={minor === null}
        testId="fund-submit"
      >
        Fund
      </SubmitButton>
      <p className="muted small form-note" data-testid="fund-available">
        Business wallet: {formatMoney(available, currency)} available
      </p>
    </form>
  );
}

/** One empty list, so a selector returning it gives the same value each time. */
const NONE: CardApplication[] = [];

function Issue({ products }: { products: CardProduct[] }) {
  const applications = useStore((s) => s.cardholderDetail?.applications ?? NONE);
  const verified = useStore((s) => s.cardholderDetail?.cardholder.is_kyc_verified ?? false);
  const applyForCard = useStore((s) => s.applyForCard);
  const issueCard = useStore((s) => s.issueCard);
  const reviewApplication = useStore((s) => s.reviewApplication);
  const [productId, setProductId] = useState(products[0]?.id ?? '');
  const [busy, run] = useBusy();
  const product = products.find((p) => p.id === productId) ?? products[0];
  const forProduct = applications.filter((a) => a.catalogue === product?.id);
  const approved = forProduct.some((a) => a.status === 'approved');
  const pending = forProduct.some((a) => a.status === 'pending');
  const productName = (id: string) => products.find((p) => p.id === id)?.name ?? id.slice(0, 8);

  return (
    <div className="form">
      <div className="form form-inline">
        <Field label="Card product" grow>
          <Select value={product?.id ?? ''} onChange={setProductId} testId="card-product-select">
            {products.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} · {p.type}
              </option>
            ))}
          </Select>
        </Field>
        {/* Applied already: the application below says how it stands. */}
        {!approved && !pending && (
          <button
            type="button"
            className="btn btn-secondary"
            disabled={busy || !product || !verified}
            title={verified ? undefined : 'Approve KYC first'}
            onClick={() => product && void run(() => applyForCard(product))}
            data-testid="card-apply"
          >
            Apply
          </button>
        )}
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy || !product || !approved}
          title={approved ? undefined : 'Needs an approved application for this product'}
          onClick={() => product && void run(() => issueCard(product))}
          data-testid="card-issue"
        >
          Issue {product?.type ?? ''} card
        </button>
      </div>
      {applications.length > 0 && (
        <ul className="mini-list" data-testid="applications">
          {applications.map((a) => (
            <li key={a.id} className="mini-item" data-testid="application-row" data-status={a.status}>
              <span>Application · {productName(a.catalogue)}</span>
              <StatusBadge status={a.status} tone={APPLICATION_TONE[a.status]} />
              {a.status === 'pending' && (
                <span className="mini-item-side button-group">
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    disabled={busy}
                    onClick={() => void run(() => reviewApplication(a.id, 'approved'))}
                    data-testid="application-approve"
                  >
                    Approve
                  </button>
                  <button
                    type="button"
                    className="btn btn-danger-ghost btn-sm"
                    disabled={busy}
                    onClick={() => void run(() => reviewApplication(a.id, 'rejected'))}
                    data-testid="application-reject"
                  >
                    Reject
                  </button>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function CardholderDetail({ holderId }: { holderId: string }) {
  const detail = useStore((s) =>
    s.cardholderDetail?.cardholder.id === holderId ? s.cardholderDetail : null,
  );
  const products = useStore((s) => s.catalogue);
  const setKycResult = useStore((s) => s.setKycResult);
  const [busy, run] = useBusy();
  if (!detail) {
    return (
      <Card>
        <p className="empty">Loading cardholder…</p>
      </Card>
    );
  }
  const { cardholder } = detail;
  const kyc = cardholder.kyc_status;

  return (
    <div
      className="stack"
      data-testid="cardholder-detail"
      data-cardholder-id={cardholder.id}
      data-env={cardholder.env}
    >
      <Card>
        <div className="merchant-head">
          <span className="avatar avatar-lg avatar-person" aria-hidden="true">
            {cardholder.name.trim().charAt(0).toUpperCase() || '?'}
          </span>
          <div className="merchant-head-text">
            <h2 className="merchant-name" data-testid="cardholder-name">
              {cardholder.name}
            </h2>
            <Private>
              <div className="merchant-id">
                <code className="mono">{cardholder.id}</code>
                <CopyButton value={cardholder.id} label="Copy id" />
              </div>
            </Private>
          </div>
          <div className="kyc-box">
            <StatusBadge
              status={kyc}
              label={`KYC ${describeStatus(kyc)}`}
              tone={KYC_TONE[kyc]}
              testId="cardholder-kyc"
              large
            />
            {/* The badge says where the check stands: only the other outcome is offered. */}
            <div className="button-group">
              {kyc !== 'approved' && (
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  disabled={busy}
                  onClick={() => void run(() => setKycResult('approved'))}
                  data-testid="kyc-approve"
                >
                  Approve KYC
                </button>
              )}
              {kyc !== 'rejected' && (
                <button
                  type="button"
                  className="btn btn-danger-ghost btn-sm"
                  disabled={busy}
                  onClick={() => void run(() => setKycResult('rejected'))}
                  data-testid="kyc-reject"
                >
                  Reject KYC
                </button>
              )}
            </div>
          </div>
        </div>
        <dl className="facts facts-row">
          <div>
            <dt>Username</dt>
            <dd className="mono">{cardholder.username}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{cardholder.email ? <Breakable text={cardholder.email} /> : '—'}</dd>
          </div>
          <div>
            <dt>Wallet</dt>
            <dd data-testid="cardholder-balance">
              {cardholder.balances.length > 0
                ? cardholder.balances.map((b) => `${formatAmount(b.balance)} ${b.currency}`).join(' · ')
                : '0.00'}
            </dd>
          </div>
        </dl>
        <div className="card-section">
          <FundForm />
        </div>
      </Card>
      <Card
        title="Cards"
        subtitle="Apply for a product (reviewed per the sandbox setting), then issue: virtual cards start active, physical ones need activating."
        testId="cards"
      >
        <Issue products={products} />
        <CardList cards={detail.cards} products={products} />
      </Card>
      <CardSecrets />
      <CardNetwork />
    </div>
  );
}
