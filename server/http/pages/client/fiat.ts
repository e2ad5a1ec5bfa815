/**
 * The card provider's page script (the sandbox's stand-in for a fiat session): *Pay* pays the
 * checkout through the control API and goes to success_url; *Cancel* goes to cancel_url and leaves
 * the checkout as it is.
 */
import type { FiatPageData } from '../state.js';
import { byTestId, readData, WORKSPACE_BASE } from './dom.js';

const data = readData<FiatPageData>('fiat-state');
const message = byTestId('message');

byTestId<HTMLButtonElement>('pay').addEventListener('click', async (event) => {
  (event.currentTarget as HTMLButtonElement).disabled = true;
  const response = await fetch(
    `${WORKSPACE_BASE}/sandbox/checkouts/${encodeURIComponent(data.id)}/payments`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'fiat' }),
    },
  );
  const answer = (await response.json()) as { error?: string; checkout?: { status: string } };
  if (!response.ok) {
    message.textContent = answer.error ?? `The sandbox refused the payment (${response.status}).`;
    return;
  }
  if (data.success_url) {
    location.href = data.success_url;
    return;
  }
  const pill = byTestId('status');
  pill.textContent = 'Paid';
  pill.className = 'pill ok';
  pill.dataset.status = answer.checkout?.status ?? 'paid';
  message.textContent = 'Payment accepted. You can close this page.';
});

byTestId('cancel').addEventListener('click', () => {
  if (data.cancel_url) location.href = data.cancel_url;
  else message.textContent = 'Cancelled';
});
