import type { Env } from '../contract/common.js';
import type { Role } from '../contract/merchants.js';

export { ENVS, type Env } from '../contract/common.js';

/** Who is calling /v1: derived from the API key, never from the request body. */
export interface Principal {
  env: Env;
  merchantId: string;
  apiKeyId: string;
  role: Role;
}
