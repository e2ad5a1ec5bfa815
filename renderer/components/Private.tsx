import type { ReactNode } from 'react';
import { eventInWords } from '../lib/activity';
import { withoutIds } from '../lib/format';
import { useStore } from '../store';

/**
 * Developer material (an API key, a signing secret, a curl command, an RSA key, a raw id): rendered
 * only outside presentation mode. `instead` is what a presenter's audience sees in its place.
 */
export function Private({ children, instead = null }: { children: ReactNode; instead?: ReactNode }) {
  const presenting = useStore((s) => s.presenting);
  return presenting ? instead : children;
}

export const usePresenting = () => useStore((s) => s.presenting);

/**
 * Text that may carry raw ids (a webhook URL, a payload) as the audience may see it: as it is for
 * a developer, with the ids blanked out while presenting.
 */
export function useShown(): (text: string) => string {
  const presenting = usePresenting();
  return presenting ? withoutIds : (text) => text;
}

/**
 * Picks the developer's wording (API paths, webhook words) or the merchant's while presenting:
 * `words('Made through /v1/customers.', 'People who buy from you.')`.
 */
export function useWords(): (developer: string, plain: string) => string {
  const presenting = usePresenting();
  return (developer, plain) => (presenting ? plain : developer);
}

/**
 * An event type as the audience may read it: the type for a developer (`checkout.paid`), the
 * merchant's words while presenting ("Payment received").
 */
export function useEventName(): (type: string) => string {
  const presenting = usePresenting();
  return presenting ? eventInWords : (type) => type;
}

/**
 * A receiver's answer (an HTTP status) as the audience may read it: "HTTP 503" for a developer,
 * "Accepted" or "Refused" while presenting.
 */
export function useAnswerName(): (status: number) => string {
  const presenting = usePresenting();
  return presenting
    ? (status) => (status >= 200 && status < 300 ? 'Accepted' : 'Refused')
    : (status) => `HTTP ${status}`;
}
