import { request } from './client';
import type { ApiKey, ClockState, CreateApiKeyInput, CreateMerchantInput, Health, Merchant } from './types';

const id = encodeURIComponent;

export const health = () => request<Health>('GET', '/sandbox/health');

export const listMerchants = () => request<Merchant[]>('GET', '/sandbox/merchants');
export const createMerchant = (input: CreateMerchantInput) =>
  request<{ merchant: Merchant; api_key: ApiKey }>('POST', '/sandbox/merchants', input);

export const listApiKeys = (merchantId: string) =>
  request<ApiKey[]>('GET', `/sandbox/merchants/${id(merchantId)}/api-keys`);
export const createApiKey = (merchantId: string, input: CreateApiKeyInput) =>
  request<ApiKey>('POST', `/sandbox/merchants/${id(merchantId)}/api-keys`, input);
export const revokeApiKey = (keyId: string) => request<ApiKey>('DELETE', `/sandbox/api-keys/${id(keyId)}`);

export const getClock = () => request<ClockState>('GET', '/sandbox/clock');
export const advanceClock = (seconds: number) =>
  request<ClockState>('POST', '/sandbox/clock/advance', { seconds });
export const freezeClock = () => request<ClockState>('POST', '/sandbox/clock/freeze');
export const resumeClock = () => request<ClockState>('POST', '/sandbox/clock/resume');
