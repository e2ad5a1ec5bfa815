import { expectTypeOf, it } from 'vitest';
import type { Coverage } from '../../server/contract/coverage.js';
import type { Faults, FaultsInput } from '../../server/contract/faults.js';
import type { VerifyRequestsResult } from '../../server/contract/requests.js';
import type { ClockState } from '../../server/contract/sandbox-state.js';
import type { InboxMessage } from '../../server/contract/webhooks.js';
import type { Checkpoint, CreateWorkspaceBody, Fired, Workspace } from '../../server/contract/workspaces.js';
import type * as Testing from '../../server/testing/index.js';

// svc-sandbox/testing writes its public shapes out (its declarations stand alone); `npm run
// typecheck` compares each with the contract, so the two cannot drift apart.
it('declares the contract’s shapes', () => {
  expectTypeOf<Testing.WorkspaceInfo>().toEqualTypeOf<Workspace>();
  expectTypeOf<Testing.ClockState>().toEqualTypeOf<ClockState>();
  expectTypeOf<Testing.Fired>().toEqualTypeOf<Fired>();
  expectTypeOf<Testing.CheckpointInfo>().toEqualTypeOf<Checkpoint>();
  expectTypeOf<Testing.InboxMessage>().toEqualTypeOf<InboxMessage>();
  expectTypeOf<Testing.FaultsState>().toEqualTypeOf<Faults>();
  expectTypeOf<Testing.VerifyResult>().toEqualTypeOf<VerifyRequestsResult>();
  expectTypeOf<Testing.FaultRuleInput[]>().toMatchTypeOf<FaultsInput['rules']>();
  expectTypeOf<Coverage>().toMatchTypeOf<Testing.CoverageCounts>();
  // What a test may ask for is what the sandbox takes (a Date is sent as ISO 8601).
  expectTypeOf<Omit<Testing.WorkspaceOptions, 'merchant' | 'clock'>>().toMatchTypeOf<
    Omit<CreateWorkspaceBody, 'clock'>
  >();
});
