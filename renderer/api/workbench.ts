import { call } from './client';
import type { Env } from './types';

// The webhook workbench's control routes (server/http/sandbox/webhook-workbench.ts).

export const listEndpointHealth = (merchantId: string, env: Env) =>
  call('sandboxListWebhookEndpointHealth', { params: { id: merchantId }, query: { env } });

export const resendDelivery = (deliveryId: string, endpointId: string) =>
  call('sandboxResendDelivery', { params: { id: deliveryId }, body: { endpoint_id: endpointId } });
