import { type FormEvent, useState } from 'react';
import type { StaticAddress } from '../../api/types';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { AmountInput, Field, Select } from '../../components/Field';
import { useWords } from '../../components/Private';
import { SubmitButton } from '../../components/SubmitButton';
import { useBusy } from '../../components/useBusy';
import { chainName, parseAmount } from '../../lib/format';
import { useStore } from '../../store';
import { scopeKey } from '../../store/merchant-scope';

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
  const [times, setTimes] = useState('1');
  const [busy, run] = useBusy();
  const minor = parseAmount(amount);
  // How many transfers of the amount land in the same block (a burst): 1 to 500.
  const count = /^\d{1,3}$/.test(times) && Number(times) >= 1 && Number(times) <= 500 ? Number(times) : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (minor === null || count === null) return;
    if (await run(() => sendToAddress(address, currency, minor, count))) onDone();
  };

  return (
    <form className="form form-inline send-form" onSubmit={submit} data-testid="address-send-form">
      <Field label="Token">
        <Select value={currency} onChange={setCurrency} testId="address-send-currency">
          {tokens.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Amount">
        <AmountInput
          compact
          value={amount}
          onChange={setAmount}
          placeholder="100.00"
          testId="address-send-amount"
        />
      </Field>
      <Field label="Transfers">
        <input
          className="input input-amount"
          title="How many transfers of the amount arrive in the same block (1–500), each with its deposit.received"
          inputMode="numeric"
          value={times}
          onChange={(e) => setTimes(e.target.value.trim())}
          aria-invalid={count === null}
          data-testid="address-send-count"
        />
      </Field>
      <SubmitButton
        busy={busy}
        busyLabel="Sending…"
        disabled={minor === null || count === null}
        testId="address-send-submit"
      >
        Send
      </SubmitButton>
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
  const words = useWords();

  return (
    <Card
      title={words('Static addresses', 'Deposit addresses')}
      subtitle={words(
        'One per chain. Play the sender: the deposit is confirmed at once and fires deposit.received.',
        'The business’s own address on each network: money sent there lands in its balance.',
      )}
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
                  <span className="chain-name">{chainName(address.chain)}</span>
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
