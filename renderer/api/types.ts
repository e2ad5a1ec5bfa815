// Shapes of the sandbox control API (/sandbox/...), as the server documents them in its OpenAPI
// document (/sandbox/openapi.json). The renderer keeps its own copy: it talks to the server over
// HTTP only and never imports server code.

export type Env = 'test' | 'production';
export type Role = 'owner' | 'admin' | 'developer';
export type KybStatus = 'draft' | 'pending' | 'approved' | 'rejected';

export interface Urls {
  test: string;
  production: string;
  dashboard: string;
}

export interface Health {
  status: 'ok';
  version: string;
  now: string;
  urls: Urls;
}

export interface Merchant {
  id: string;
  name: string;
  legal_name: string | null;
  country: string | null;
  kyb_status: KybStatus;
  platform_rate: number | null;
  created_at: string;
  updated_at: string;
}

export interface ApiKey {
  id: string;
  merchant_id: string;
  name: string;
  role: Role;
  /** The full key: sandbox keys stay viewable. */
  key: string;
  created_at: string;
  revoked_at: string | null;
}

export interface CreateMerchantInput {
  name: string;
  legal_name?: string;
  country?: string;
}

export interface CreateApiKeyInput {
  name: string;
  role: Role;
}

export interface ClockState {
  now: string;
  offset_ms: number;
  frozen: boolean;
  /** Jobs that fell due and ran because of the call (advance, resume). */
  ran?: number;
}

/** A recorded event, as GET /sandbox/events streams it (`event: event`). */
export interface SandboxEvent {
  id: string;
  env: Env;
  merchant_id: string;
  type: string;
  resource_id: string | null;
  data: Record<string, unknown>;
  created_at: string;
}
