import { useStore } from '../../store';

/** Opens a checkout of the current scope on the Checkouts page (from a customer or an invoice). */
export function openCheckout(id: string): void {
  void useStore.getState().selectCheckout(id);
  window.location.hash = '#/checkouts';
}
