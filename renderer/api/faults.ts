import type {
  FaultEffect,
  FaultMark,
  FaultMatch,
  FaultRule,
  FaultRuleInput,
  Faults,
  FaultsInput,
} from '../../server/contract/faults.js';
import { call } from './client';

// The workspace's API faults (server/http/sandbox/faults.ts): what its /v1 requests suffer on purpose.

export type { FaultEffect, FaultMark, FaultMatch, FaultRule, FaultRuleInput, Faults, FaultsInput };

export const getFaults = () => call('sandboxGetFaults');

/** Replaces the whole set of rules; the seed (given or new) restarts the sequence. */
export const setFaults = (body: FaultsInput) => call('sandboxSetFaults', { body });

export const clearFaults = () => call('sandboxClearFaults');
