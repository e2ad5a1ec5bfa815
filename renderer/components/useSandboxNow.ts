import { useEffect, useState } from 'react';
import { useStore } from '../store';

/**
 * The sandbox's current time in ms, ticking once a second while the clock runs. The server's clock
 * follows real time plus an offset, so between reads it is extrapolated locally; a frozen clock is
 * shown exactly as read.
 */
export function useSandboxNow(): number | null {
  const clock = useStore((s) => s.clock);
  const readAt = useStore((s) => s.clockReadAt);
  const [, setTick] = useState(0);
  const running = clock !== null && !clock.frozen;

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [running]);

  if (!clock) return null;
  const base = Date.parse(clock.now);
  return clock.frozen ? base : base + (Date.now() - readAt);
}
