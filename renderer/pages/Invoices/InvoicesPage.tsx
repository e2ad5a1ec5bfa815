import type { InvoiceDetail } from '../../api/types';
import { Breakable } from '../../components/Breakable';
import { Card } from '../../components/Card';
import { DetailHead, Fact } from '../../components/DetailHead';
import { FilterTabs } from '../../components/FilterTabs';
import { PagedList } from '../../components/PagedList';
import { Private, useWords } from '../../components/Private';
import { ScopeGate } from '../../components/ScopeGate';
import { SearchBox } from '../../components/SearchBox';
import { StatusBadge } from '../../components/StatusBadge';
import { useScopedLoad } from '../../components/useScopedLoad';
import { formatAmount, formatDay, formatMoney, formatTimestamp } from '../../lib/format';
import { useStore } from '../../store';
import { invoicesKey } from '../../store/invoices';
import { scopeKey } from '../../store/merchant-scope';
import { openCheckout } from '../Checkouts/open';
import { CHECKOUT_LABEL, CHECKOUT_TONE } from '../Checkouts/status';
import { INVOICE_FILTERS, INVOICE_TONE } from './status';

const label = (f: string) => (f === 'all' ? 'All' : f.charAt(0).toUpperCase() + f.slice(1));

function InvoiceList() {
  const invoices = useStore((s) => s.invoices);
  // Rows read for this scope stay on screen while another filter, search or page is read.
  const current = useStore((s) => s.invoicesFor?.startsWith(`${scopeKey(s)}|`) ?? false);
  const loaded = useStore(
    (s) => s.invoicesFor === invoicesKey(scopeKey(s), s.invoiceFilter, s.invoiceSearch, s.invoicePaging),
  );
  const filter = useStore((s) => s.invoiceFilter);
  const search = useStore((s) => s.invoiceSearch);
  const paging = useStore((s) => s.invoicePaging);
  const selected = useStore((s) => s.selectedInvoiceId);
  const { setInvoiceFilter, searchInvoices, invoicesPage, selectInvoice } = useStore.getState();
  const env = useStore((s) => s.env);
  const words = useWords();
  return (
    <PagedList
      title="Invoices"
      subtitle={words(
        `Made through /v1/invoices in ${env}, newest first. Activating one creates the checkout that collects it.`,
        'Bills to customers, newest first. Sending one opens the payment page that collects it.',
      )}
      testId="invoice-list"
      toolbar={
        <>
          <FilterTabs
            options={INVOICE_FILTERS}
            value={filter}
            onChange={(f) => void setInvoiceFilter(f)}
            testIdPrefix="invoice-filter"
            label={label}
          />
          <SearchBox
            value={search}
            onSearch={(text) => void searchInvoices(text)}
            placeholder="Number, title or id"
            testId="invoice-search"
          />
        </>
      }
      items={invoices}
      current={current}
      loaded={loaded}
      empty={filter === 'all' && !search ? `No invoices in ${env} yet.` : 'No invoice matches.'}
      emptyTestId="invoices-empty"
      row={(invoice) => (
        <button
          type="button"
          className={`row-item ${invoice.id === selected ? 'selected' : ''}`}
          onClick={() => void selectInvoice(invoice.id)}
          data-testid="invoice-row"
          data-invoice-id={invoice.id}
          data-status={invoice.status}
        >
          <span className="row-item-text">
            <span className="row-item-title">{invoice.title}</span>
            <span className="row-item-sub">
              <span className="mono">{invoice.invoice_number}</span> · {formatTimestamp(invoice.created_at)}
            </span>
          </span>
          <span className="row-item-side">
            <span className="amount">{formatMoney(invoice.amount, invoice.currency)}</span>
            <StatusBadge status={invoice.status} tone={INVOICE_TONE[invoice.status]} />
          </span>
        </button>
      )}
      paging={paging}
      onPage={(direction) => void invoicesPage(direction)}
      pagerTestId="invoice-pager"
    />
  );
}

/** Tax rate in basis points, as a percentage: 2000 → "20%", 825 → "8.25%". */
const percent = (bps: number) => `${(bps / 100).toFixed(2).replace(/\.?0+$/, '')}%`;

function Detail({ detail }: { detail: InvoiceDetail }) {
  const { invoice, customer, checkout } = detail;
  const money = (minor: number) => `${formatAmount(minor)} ${invoice.currency}`;
  return (
    <div className="stack" data-testid="invoice-detail">
      <Card>
        <DetailHead
          title={invoice.title}
          titleTestId="invoice-title"
          badge={
            <StatusBadge
              status={invoice.status}
              tone={INVOICE_TONE[invoice.status]}
              testId="invoice-status"
              large
            />
          }
          code={invoice.invoice_number}
          codeTestId="invoice-number"
          copyValue={invoice.id}
          amount={
            <span className="detail-amount-value" data-testid="invoice-amount">
              {money(invoice.amount)}
            </span>
          }
        />
        <dl className="facts facts-row facts-4">
          <Fact label="Customer" testId="invoice-customer">
            {customer ? (
              <Breakable text={`${customer.name}${customer.email ? ` <${customer.email}>` : ''}`} />
            ) : (
              '—'
            )}
          </Fact>
          <Fact label="Due">{invoice.due_date ? formatDay(invoice.due_date) : '—'}</Fact>
          <Fact label="Created">{formatTimestamp(invoice.created_at)}</Fact>
          <Fact label="Paid" testId="invoice-paid">
            {invoice.paid_at
              ? `${money(invoice.paid_amount ?? 0)}, ${formatTimestamp(invoice.paid_at)}`
              : '—'}
          </Fact>
        </dl>
        {invoice.description && <p className="muted small">{invoice.description}</p>}
      </Card>

      <Card title="Line items" testId="invoice-lines">
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Description</th>
                <th className="num">Quantity</th>
                <th className="num">Unit price</th>
                <th className="num">Total</th>
              </tr>
            </thead>
            <tbody>
              {invoice.line_items.length === 0 ? (
                <tr>
                  <td colSpan={4} className="muted">
                    No line items: the invoice is for its amount.
                  </td>
                </tr>
              ) : (
                invoice.line_items.map((line, i) => (
                  // Line items have no id; their order is their identity.
                  // biome-ignore lint/suspicious/noArrayIndexKey: fixed list, never reordered
                  <tr key={i} data-testid="invoice-line">
                    <td>{line.description}</td>
                    <td className="num">{line.quantity}</td>
                    <td className="num">{money(line.unit_price)}</td>
                    <td className="num" data-testid="invoice-line-total">
                      {money(line.total)}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
            <tfoot>
              <tr>
                <td colSpan={3}>Subtotal</td>
                <td className="num" data-testid="invoice-subtotal">
                  {money(invoice.subtotal)}
                </td>
              </tr>
              <tr>
                <td colSpan={3}>Tax ({percent(invoice.tax_rate)})</td>
                <td className="num" data-testid="invoice-tax">
                  {money(invoice.tax_amount)}
                </td>
              </tr>
              <tr className="strong">
                <td colSpan={3}>Total</td>
                <td className="num" data-testid="invoice-total">
                  {money(invoice.amount)}
                </td>
              </tr>
            </tfoot>
          </table>
        </div>
      </Card>

      <Card
        title="Checkout"
        subtitle="Activating the invoice creates the checkout the customer pays; when it is paid, so is the invoice."
        testId="invoice-checkout"
      >
        {checkout ? (
          <div className="row-item-static">
            <span className="row-item-text">
              <span className="row-item-title">{checkout.title}</span>
              <Private>
                <code className="mono small" data-testid="invoice-checkout-id">
                  {checkout.id}
                </code>
              </Private>
            </span>
            <span className="row-item-side">
              <StatusBadge
                status={checkout.status}
                tone={CHECKOUT_TONE[checkout.status]}
                label={CHECKOUT_LABEL[checkout.status]}
                testId="invoice-checkout-status"
              />
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => openCheckout(checkout.id)}
                data-testid="invoice-open-checkout"
              >
                Open in Checkouts
              </button>
            </span>
          </div>
        ) : (
          <p className="muted" data-testid="invoice-no-checkout">
            None yet: a draft invoice has no checkout until it is activated.
          </p>
        )}
      </Card>
    </div>
  );
}

/** The merchant's invoices: status filter, search, pages, and each with its lines, tax and checkout. */
export function InvoicesPage() {
  const loadInvoices = useStore((s) => s.loadInvoices);
  useScopedLoad(loadInvoices);
  const detail = useStore((s) => {
    const d = s.invoiceDetail;
    return d && d.invoice.merchant_id === s.selectedMerchantId && d.env === s.env ? d : null;
  });
  return (
    <ScopeGate>
      <div className="grid-split">
        <InvoiceList />
        {detail ? (
          <Detail detail={detail} />
        ) : (
          <Card>
            <p className="empty">Select an invoice to see its line items, tax and checkout.</p>
          </Card>
        )}
      </div>
    </ScopeGate>
  );
}
