import { request } from './client';
import type { Delivery, EndpointHealth, Env } from './types';

// The webhook workbench's control routes (server/http/sandbox/webhook-workbench.ts).
const id = encodeURIComponent;

export const listEndpointHealth = (merchantId: string, env: Env) =>
  request<EndpointHealth[]>(
    'GET',
    `/sandbox/merchants/${id(merchantId)}/webhook-endpoints/health?env=${env}`,
  );

export const resendDelivery = (deliveryId: string, endpointId: string) =>
  request<Delivery>('POST', `/sandbox/deliveries/${id(deliveryId)}/resend`, { endpoint_id: endpointId });
