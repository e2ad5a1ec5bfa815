import type { Coverage } from '../../server/contract/coverage.js';
import type { ReceiverCheckBody, ReceiverCheckResult } from '../../server/contract/receiver-checks.js';
import { call } from './client';

// Testing the integration: the receiver check and the coverage report (server/http/sandbox/).

export type { Coverage, ReceiverCheckBody, ReceiverCheckResult };

export const checkReceiver = (body: ReceiverCheckBody) => call('sandboxCheckReceiver', { body });

export const getCoverage = () => call('sandboxGetCoverage');
