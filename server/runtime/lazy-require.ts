import { createRequire } from 'node:module';

/**
 * Loads a module on first use rather than at start-up (the time to the ready line is mostly
 * module loading): `const undici = lazy<typeof import('undici')>('undici')`, then `undici()`.
 * require() takes CommonJS and, on the Node versions this runs on (>= 22.12), ES modules too.
 */
const require = createRequire(import.meta.url);

export function lazy<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= require(specifier) as T;
    return loaded;
  };
}
