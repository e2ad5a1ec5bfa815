import { describeEvent } from '../../lib/activity';

/**
 * A delivered body (`{id, event, data}`) as the line a merchant reads, what presentation mode shows
 * instead of the JSON: "Payment received · 120.00 USDC · NW-1008"; null if it is not an event.
 */
export function bodyInWords(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { event?: unknown; data?: unknown };
    if (typeof parsed.event !== 'string') return null;
    const data =
      typeof parsed.data === 'object' && parsed.data !== null ? (parsed.data as Record<string, unknown>) : {};
    const line = describeEvent({ type: parsed.event, data });
    return [line.headline, line.amount, line.detail].filter(Boolean).join(' · ');
  } catch {
    return null;
  }
}
