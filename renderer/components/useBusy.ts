import { useState } from 'react';

/**
 * Wraps a form's store action: `busy` while it runs (buttons disable, a second click does nothing),
 * and resolves with the action's success so the form can clear its fields.
 */
export function useBusy(): [boolean, (action: () => Promise<boolean>) => Promise<boolean>] {
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<boolean>) => {
    setBusy(true);
    try {
      return await action();
    } finally {
      setBusy(false);
    }
  };
  return [busy, run];
}
