import { type FormEvent, useState } from 'react';
import type { StaticAddress } from '../../api/types';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { parseAmount } from '../../components/format';
import { useBusy } from '../../components/useBusy';
import { useStore } from '../../store';
import { scopeKey } from '../../store/scope';

function SendForm({
  address,
  tokens,
  onDone,
}: {
  address: StaticAddress;
  tokens: string[];
  onDone: () => void;
}) {
  const sendToAddress = useStore((s) => s.sendToAddress);
  const [currency, setCurrency] = useState(tokens[0] ?? 'USDC');
  const [amount, setAmount] = useState('');
  const [busy, run] = useBusy();
  const minor = parseAmount(amount);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (minor === null) return;
    if (await run(() => sendToAddress(address, currency, minor))) onDone();
  };

  return (
    <form className="form form-inline send-form" onSubmit={submit} data-testid="address-send-form">
      <label className="field">
        <span className="field-label">Token</span>
        <select
          className="input"
          value={currency}
          onChange={(e) => setCurrency(e.target.value)}
          data-testid="address-send-currency"
        >
          {tokens.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field-label">Amount</span>
        <input
          className="input input-amount"
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          placeholder="100.00"
          aria-invalid={amount !== '' && minor === null}
          data-testid="address-send-amount"
        />
      </label>
      <button
        type="submit"
        className="btn btn-primary"
        disabled={busy || minor === null}
        data-testid="address-send-submit"
      >
        {busy ? 'Sending…' : 'Send'}
      </button>
      <button type="button" className="btn btn-ghost" onClick={onDone}>
        Close
      </button>
    </form>
  );
}

/** The merchant's permanent deposit addresses: money sent there lands in the available balance. */
export function StaticAddresses() {
  const addresses = useStore((s) => s.staticAddresses);
  const loaded = useStore((s) => s.moneyScope !== null && s.moneyScope === scopeKey(s));
  const chains = useStore((s) => s.chains);
  const [open, setOpen] = useState<string | null>(null);

  return (
    <Card
      title="Static addresses"
      subtitle="One per chain. Play the sender: the deposit is confirmed at once and fires deposit.received."
      testId="static-addresses"
    >
      {loaded && addresses.length === 0 ? (
        <p className="empty empty-inline">No static addresses.</p>
      ) : (
        <ul className="address-list">
          {(loaded ? addresses : []).map((address) => {
            const tokens = chains.find((c) => c.chain === address.chain)?.tokens.map((t) => t.name) ?? [];
            return (
              <li
                key={address.address}
                className="address-row address-row-wrap"
                data-testid="static-address"
                data-chain={address.chain}
              >
                <div className="address-meta">
                  <span className="chain-name">{address.chain}</span>
                  <span className="token-chips">
                    {tokens.map((t) => (
                      <span key={t} className="chip">
                        {t}
                      </span>
                    ))}
                  </span>
                </div>
                <div className="address-value">
                  <code className="mono" data-testid="static-address-value">
                    {address.address}
                  </code>
                  <CopyButton value={address.address} />
                  <button
                    type="button"
                    className="btn btn-outline btn-sm"
                    aria-expanded={open === address.address}
                    onClick={() => setOpen(open === address.address ? null : address.address)}
                    data-testid="address-send"
                  >
                    Send to this address
                  </button>
                </div>
                {open === address.address && (
                  <SendForm address={address} tokens={tokens} onDone={() => setOpen(null)} />
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
