import type { InvoiceStatus } from '../../api/types';
import type { Tone } from '../../components/StatusBadge';
import { useStore } from '../../store';

export const INVOICE_TONE: Record<InvoiceStatus, Tone> = {
  draft: 'neutral',
  sent: 'accent',
  paid: 'success',
  cancelled: 'danger',
};

export const INVOICE_FILTERS = ['all', 'draft', 'sent', 'paid', 'cancelled'] as const satisfies readonly (
  | InvoiceStatus
  | 'all'
)[];

/** Opens an invoice of the current scope on the Invoices page (from a customer). */
export function openInvoice(id: string): void {
  void useStore.getState().selectInvoice(id);
  window.location.hash = '#/invoices';
}
