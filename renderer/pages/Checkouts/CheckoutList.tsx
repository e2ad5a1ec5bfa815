import type { CheckoutStatus } from '../../api/types';
import { Select } from '../../components/Field';
import { PagedList } from '../../components/PagedList';
import { Private } from '../../components/Private';
import { SearchBox } from '../../components/SearchBox';
import { StatusBadge } from '../../components/StatusBadge';
import { formatMoney, formatTimestamp } from '../../lib/format';
import { useStore } from '../../store';
import type { CheckoutFilter } from '../../store/checkouts';
import { scopeKey } from '../../store/merchant-scope';
import { CHECKOUT_LABEL, CHECKOUT_TONE } from './status';

const STATUSES = Object.keys(CHECKOUT_TONE) as CheckoutStatus[];

export function CheckoutList() {
  const checkouts = useStore((s) => s.checkouts);
  const loaded = useStore((s) => s.checkoutsScope !== null && s.checkoutsScope === scopeKey(s));
  const selected = useStore((s) => s.selectedCheckoutId);
  const selectCheckout = useStore((s) => s.selectCheckout);
  const env = useStore((s) => s.env);
  const filter = useStore((s) => s.checkoutFilter);
  const search = useStore((s) => s.checkoutSearch);
  const paging = useStore((s) => s.checkoutPaging);
  const { setCheckoutFilter, searchCheckouts, checkoutsPage } = useStore.getState();
  const filtered = filter !== 'all' || search !== '';

  return (
    <PagedList
      title="Checkouts"
      subtitle={loaded ? `In ${env}, newest first.` : 'Loading…'}
      testId="checkout-list"
      toolbar={
        <>
          <Select
            value={filter}
            onChange={(value) => void setCheckoutFilter(value as CheckoutFilter)}
            testId="checkout-status-filter"
          >
            <option value="all">Any status</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {CHECKOUT_LABEL[status]}
              </option>
            ))}
          </Select>
          <SearchBox
            value={search}
            onSearch={(text) => void searchCheckouts(text)}
            placeholder="Title, reference or id"
            testId="checkout-search"
          />
        </>
      }
      items={checkouts}
      current={loaded}
      loaded={loaded}
      empty={filtered ? 'No checkout matches.' : `No checkouts in ${env} yet.`}
      emptyTestId="checkouts-empty"
      row={(checkout) => (
        <button
          type="button"
          className={`row-item ${checkout.id === selected ? 'selected' : ''}`}
          onClick={() => void selectCheckout(checkout.id)}
          data-testid="checkout-row"
          data-checkout-id={checkout.id}
          data-status={checkout.status}
        >
          <span className="row-item-text">
            <span className="row-item-title">{checkout.title}</span>
            <span className="row-item-sub">
              {/* The merchant's own reference names a checkout better than an id prefix they all share. */}
              {checkout.reference ? (
                `${checkout.reference} · `
              ) : (
                <Private>
                  <span className="mono">{checkout.id.slice(0, 8)}</span> ·{' '}
                </Private>
              )}
              {formatTimestamp(checkout.created_at)}
            </span>
          </span>
          <span className="row-item-side">
            <span className="amount">{formatMoney(checkout.amount, checkout.currency)}</span>
            <StatusBadge
              status={checkout.status}
              tone={CHECKOUT_TONE[checkout.status]}
              label={CHECKOUT_LABEL[checkout.status]}
            />
          </span>
        </button>
      )}
      paging={paging}
      onPage={(direction) => void checkoutsPage(direction)}
      pagerTestId="checkout-pager"
    />
  );
}
