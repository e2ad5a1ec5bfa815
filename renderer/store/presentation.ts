import type { Slice } from './types';

/** Where the switch is remembered: the same browser (or desktop window) opens presenting again. */
export const PRESENTING_KEY = 'svc-sandbox.presenting';

function remembered(): boolean {
  try {
    return globalThis.localStorage?.getItem(PRESENTING_KEY) === '1';
  } catch {
    return false; // storage refused (a locked-down profile): start as a developer
  }
}

export interface PresentationSlice {
  /**
   * Presentation mode: keys, secrets, curl commands, RSA keys and raw ids are not rendered, words
   * are the merchant's, and every simulation control stays.
   */
  presenting: boolean;
  setPresenting: (on: boolean) => void;
}

export const createPresentationSlice: Slice<PresentationSlice> = (set) => ({
  presenting: remembered(),
  setPresenting: (on) => {
    try {
      if (on) globalThis.localStorage?.setItem(PRESENTING_KEY, '1');
      else globalThis.localStorage?.removeItem(PRESENTING_KEY);
    } catch {
      // not remembered, still switched
    }
    set({ presenting: on });
  },
});
