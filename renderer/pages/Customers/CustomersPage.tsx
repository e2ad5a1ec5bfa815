import type { ReactNode } from 'react';
import type { CustomerDetail } from '../../api/types';
import { Breakable } from '../../components/Breakable';
import { Card } from '../../components/Card';
import { DetailHead, Fact } from '../../components/DetailHead';
import { PagedList } from '../../components/PagedList';
import { Private, useWords } from '../../components/Private';
import { ScopeGate } from '../../components/ScopeGate';
import { SearchBox } from '../../components/SearchBox';
import { StatusBadge } from '../../components/StatusBadge';
import { useScopedLoad } from '../../components/useScopedLoad';
import { formatMoney, formatTimestamp } from '../../lib/format';
import { useStore } from '../../store';
import { customersKey } from '../../store/customers';
import { scopeKey } from '../../store/merchant-scope';
import { openCheckout } from '../Checkouts/open';
import { CHECKOUT_LABEL, CHECKOUT_TONE } from '../Checkouts/status';
import { INVOICE_TONE, openInvoice } from '../Invoices/status';

function CustomerList() {
  const customers = useStore((s) => s.customers);
  // Rows read for this scope stay on screen while another filter, search or page is read.
  const current = useStore((s) => s.customersFor?.startsWith(`${scopeKey(s)}|`) ?? false);
  const loaded = useStore(
    (s) => s.customersFor === customersKey(scopeKey(s), s.customerSearch, s.customerPaging),
  );
  const search = useStore((s) => s.customerSearch);
  const paging = useStore((s) => s.customerPaging);
  const selected = useStore((s) => s.selectedCustomerId);
  const { searchCustomers, customersPage, selectCustomer } = useStore.getState();
  const env = useStore((s) => s.env);
  const words = useWords();
  return (
    <PagedList
      title="Customers"
      subtitle={words(
        `Made through /v1/customers, or inline with a checkout or invoice, in ${env}. Newest first.`,
        'The people and businesses who buy, newest first.',
      )}
      testId="customer-list"
      toolbar={
        <SearchBox
          value={search}
          onSearch={(text) => void searchCustomers(text)}
          placeholder="Search name, email or id"
          testId="customer-search"
        />
      }
      items={customers}
      current={current}
      loaded={loaded}
      empty={search ? `No customer matches “${search}”.` : `No customers in ${env} yet.`}
      emptyTestId="customers-empty"
      row={(customer) => (
        <button
          type="button"
          className={`row-item ${customer.id === selected ? 'selected' : ''}`}
          onClick={() => void selectCustomer(customer.id)}
          data-testid="customer-row"
          data-customer-id={customer.id}
        >
          <span className="row-item-text">
            <span className="row-item-title">{customer.name}</span>
            <span className="row-item-sub">
              {customer.email ? (
                <Breakable text={customer.email} />
              ) : (
                <Private>
                  <span className="mono">{customer.id.slice(0, 8)}</span>
                </Private>
              )}{' '}
              · {formatTimestamp(customer.created_at)}
            </span>
          </span>
          {customer.country && <span className="chip mono">{customer.country}</span>}
        </button>
      )}
      paging={paging}
      onPage={(direction) => void customersPage(direction)}
      pagerTestId="customer-pager"
    />
  );
}

/** A card of the customer's latest records (the read returns at most 100), or a line saying there are none. */
function RelatedList<T extends { id: string }>({
  title,
  items,
  empty,
  testId,
  row,
}: {
  title: string;
  items: T[];
  empty: string;
  /** data-testid of the list */
  testId: string;
  row: (item: T) => ReactNode;
}) {
  return (
    <Card title={title} subtitle="The latest 100, newest first." className="card-flush">
      {items.length === 0 ? (
        <p className="empty empty-inline">{empty}</p>
      ) : (
        <ul className="row-list" data-testid={testId}>
          {items.map((item) => (
            <li key={item.id}>{row(item)}</li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function Detail({ detail }: { detail: CustomerDetail }) {
  const { customer } = detail;
  return (
    <div className="stack" data-testid="customer-detail">
      <Card>
        <DetailHead
          title={customer.name}
          titleTestId="customer-name"
          code={customer.id}
          codeTestId="customer-id"
          copyValue={customer.id}
        />
        <dl className="facts facts-row facts-4 facts-lead">
          <Fact label="Email" testId="customer-email">
            {customer.email ? <Breakable text={customer.email} /> : '—'}
          </Fact>
          <Fact label="Phone">{customer.phone ?? '—'}</Fact>
          <Fact label="Country">{customer.country ?? '—'}</Fact>
          <Fact label="Created">{formatTimestamp(customer.created_at)}</Fact>
        </dl>
        {customer.notes && <p className="muted small">{customer.notes}</p>}
      </Card>
      <RelatedList
        title="Invoices"
        items={detail.invoices}
        empty="No invoices for this customer."
        testId="customer-invoices"
        row={(invoice) => (
          <button
            type="button"
            className="row-item"
            onClick={() => openInvoice(invoice.id)}
            data-testid="customer-invoice"
            data-invoice-id={invoice.id}
          >
            <span className="row-item-text">
              <span className="row-item-title">{invoice.title}</span>
              <span className="row-item-sub mono">{invoice.invoice_number}</span>
            </span>
            <span className="row-item-side">
              <span className="amount">{formatMoney(invoice.amount, invoice.currency)}</span>
              <StatusBadge status={invoice.status} tone={INVOICE_TONE[invoice.status]} />
            </span>
          </button>
        )}
      />
      <RelatedList
        title="Checkouts"
        items={detail.checkouts}
        empty="No checkouts for this customer."
        testId="customer-checkouts"
        row={(checkout) => (
          <button
            type="button"
            className="row-item"
            onClick={() => openCheckout(checkout.id)}
            data-testid="customer-checkout"
            data-checkout-id={checkout.id}
          >
            <span className="row-item-text">
              <span className="row-item-title">{checkout.title}</span>
              <span className="row-item-sub">{formatTimestamp(checkout.created_at)}</span>
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
      />
    </div>
  );
}

/** The merchant's customers: search, pages, and each one with its invoices and checkouts. */
export function CustomersPage() {
  const loadCustomers = useStore((s) => s.loadCustomers);
  useScopedLoad(loadCustomers);
  // Only a customer of the scope on screen: after a switch, the previous one is not shown.
  const detail = useStore((s) => {
    const d = s.customerDetail;
    return d && d.customer.merchant_id === s.selectedMerchantId && d.env === s.env ? d : null;
  });
  return (
    <ScopeGate>
      <div className="grid-split">
        <CustomerList />
        {detail ? (
          <Detail detail={detail} />
        ) : (
          <Card>
            <p className="empty">Select a customer to see their invoices and checkouts.</p>
          </Card>
        )}
      </div>
    </ScopeGate>
  );
}
