import type {
  FaultEffect,
  FaultMark,
  FaultMatch,
  FaultRule,
  FaultRuleInput,
  Faults,
  FaultsInput,
} from '../../server/contract/faults.js';
import { request } from './client';

// The workspace's API faults (server/http/sandbox/faults.ts): what its /v1 requests suffer on purpose.

export type { FaultEffect, FaultMark, FaultMatch, FaultRule, FaultRuleInput, Faults, FaultsInput };

export const getFaults = () => request<Faults>('GET', '/sandbox/faults');

/** Replaces the whole set of rules; the seed (given or new) restarts the sequence. */
export const setFaults = (body: FaultsInput) => request<Faults>('PUT', '/sandbox/faults', body);

export const clearFaults = () => request<undefined>('DELETE', '/sandbox/faults');
