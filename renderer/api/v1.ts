import { request } from './client';
import type {
  CardApplication,
  Cardholder,
  Checkout,
  CreateCheckoutInput,
  PaymentCard,
  RefundInput,
  RefundResult,
} from './types';

// The few things the control API leaves to the merchant's own integration (creating checkouts,
// cardholders and cards, refunds, funding) go through /v1 with one of the merchant's API keys, as an
// integration would. Same origin: the dashboard is served by the test address, so these calls act
// in the test environment.

const id = encodeURIComponent;

export const createCheckout = (apiKey: string, input: CreateCheckoutInput) =>
  request<Checkout>('POST', '/v1/checkouts', input, { apiKey });

export const refundCheckout = (apiKey: string, checkoutId: string, input: RefundInput) =>
  request<RefundResult>('POST', `/v1/checkouts/${id(checkoutId)}/refund`, input, { apiKey });

export const createCardholder = (apiKey: string, input: { name: string; email?: string }) =>
  request<Cardholder>('POST', '/v1/cardholders', input, { apiKey });

/** Applies for a card product. The form's questions get fixed, plausible answers: the sandbox only checks their shape. */
export const applyForCard = (apiKey: string, cardholderId: string, catalogue: string) =>
  request<CardApplication>(
    'POST',
    `/v1/cardholders/${id(cardholderId)}/cards/apply`,
    {
      catalogue,
      account_purpose: 'Business expenses',
      occupation: 'Software engineer',
      annual_salary: '50000_100000',
      expected_monthly_volume: '1000_5000',
    },
    { apiKey },
  );

export const issueCard = (
  apiKey: string,
  cardholderId: string,
  input: { catalogue: string; type: 'virtual' | 'physical' },
) => request<PaymentCard>('POST', `/v1/cardholders/${id(cardholderId)}/cards`, input, { apiKey });

export const fundCardholder = (
  apiKey: string,
  cardholderId: string,
  input: { amount: number; currency: string },
) => request<void>('POST', `/v1/cardholders/${id(cardholderId)}/fund`, input, { apiKey });

/** Lock or unlock a card: the cardholder's own switch, which only /v1 offers. */
export const setCardStatus = (
  apiKey: string,
  cardholderId: string,
  cardId: string,
  status: 'active' | 'locked',
) =>
  request<PaymentCard>(
    'PATCH',
    `/v1/cardholders/${id(cardholderId)}/cards/${id(cardId)}`,
    { status },
    { apiKey },
  );
