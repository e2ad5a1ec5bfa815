import { performance } from 'node:perf_hooks';
import { TooManyRequestsError } from '../../errors.js';

/**
 * Per-API-key request rate (fixed one-minute windows) and concurrency. Infrastructure, not
 * domain: it runs on the monotonic real clock, not the sandbox clock.
 */
export class KeyLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Counts a request against the key's rate; throws 429 when over `perMinute` (0 = off). */
  take(keyId: string, perMinute: number): void {
    if (perMinute === 0) return;
    const now = this.now();
    let window = this.windows.get(keyId);
    if (!window || now - window.start >= 60_000) {
      window = { start: now, count: 0 };
      this.windows.set(keyId, window);
    }
    if (window.count >= perMinute) {
      const retry = Math.max(1, Math.ceil((window.start + 60_000 - now) / 1000));
      throw new TooManyRequestsError(
        `Rate limit exceeded: ${perMinute} requests per minute per API key`,
        retry,
      );
    }
    window.count++;
  }

  /**
   * Admits a request if fewer than `limit` are in flight for the key (0 = off). Returns the
   * release function, which is safe to call more than once.
   */
  enter(keyId: string, limit: number): () => void {
    const current = this.inFlight.get(keyId) ?? 0;
    if (limit !== 0 && current >= limit) {
      throw new TooManyRequestsError(
        `Concurrency limit exceeded: ${limit} concurrent requests per API key`,
        1,
      );
    }
    this.inFlight.set(keyId, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(keyId) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(keyId);
      else this.inFlight.set(keyId, left);
    };
  }

  inFlightFor(keyId: string): number {
    return this.inFlight.get(keyId) ?? 0;
  }
}
