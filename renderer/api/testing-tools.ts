import type { Coverage } from '../../server/contract/coverage.js';
import type { ReceiverCheckBody, ReceiverCheckResult } from '../../server/contract/receiver-checks.js';
import { request } from './client';

// Testing the integration: the receiver check and the coverage report (server/http/sandbox/).

export type { Coverage, ReceiverCheckBody, ReceiverCheckResult };

export const checkReceiver = (body: ReceiverCheckBody) =>
  request<ReceiverCheckResult>('POST', '/sandbox/receiver-checks', body);

export const getCoverage = () => request<Coverage>('GET', '/sandbox/coverage');
