import { useEffect, useState } from 'react';

/** The page id from the location hash (`#/merchants` → 'merchants'): links work in Electron and in a browser. */
export function readRoute(hash: string): string {
  return hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
}

export function useRoute(): string {
  const [route, setRoute] = useState(() => readRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(readRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
