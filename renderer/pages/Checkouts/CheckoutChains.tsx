import type { CryptoChain } from '../../api/types';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { chainName, formatAmount } from '../../lib/format';

/** Where the payer sends: one deposit address per chain, with the tokens it accepts there. */
export function CheckoutChains({ chains }: { chains: CryptoChain[] }) {
  return (
    <Card
      title="Deposit addresses"
      subtitle="What the hosted page shows the payer, per chain."
      testId="checkout-chains"
    >
      <ul className="address-list">
        {chains.map((chain) => (
          <li key={chain.chain} className="address-row" data-testid="checkout-chain" data-chain={chain.chain}>
            <div className="address-meta">
              <span className="chain-name">{chainName(chain.chain)}</span>
              <span className="token-chips">
                {chain.tokens.map((token) => (
                  <span
                    key={token.name}
                    className="chip"
                    title={`min ${formatAmount(token.min)}, gas fee ${formatAmount(token.gas_fee)}`}
                  >
                    {token.name}
                  </span>
                ))}
              </span>
            </div>
            <div className="address-value">
              <code className="mono" data-testid="checkout-chain-address">
                {chain.address}
              </code>
              <CopyButton value={chain.address} />
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}
