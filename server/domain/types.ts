export type Env = 'test' | 'production';
export const ENVS: readonly Env[] = ['test', 'production'];

/** Who is calling /v1: derived from the API key, never from the request body. */
export interface Principal {
  env: Env;
  merchantId: string;
  apiKeyId: string;
  role: 'owner' | 'admin' | 'developer';
}
