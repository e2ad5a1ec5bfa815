// POST /sandbox/parity: a session recorded against the real service, replayed in a fresh
// workspace of this sandbox. Imported only by the Scenarios page's parity card (its own chunk).

import { call } from './client';
import type { Env } from './types';

export type { ParityDifference, ParityDifferenceKind, ParityReport } from '../../server/contract/parity.js';

export const checkParity = (scenario: string, ignore: string[], env: Env) =>
  call('sandboxCheckParity', { body: { scenario, ignore, env } });
