import type { ReactNode } from 'react';
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
