import type { ChaosSettings, ChaosSettingsInput } from '../contract/webhooks.js';
import { UsageError } from './common.js';

export const CHAOS_HELP = `  --chaos <spec>      delivery chaos on its endpoints, e.g.
                      duplicate=0.3,reorder=5,delay=100-500,drop=0.1,bad_signature=0.05,seed=abc
                      (probabilities 0..1 per attempt; reorder: a window of up to 50 sends; delay:
                      ms, a range or one value; seed: the same seed gives the same decisions)`;

const PROBABILITIES = { duplicate: 'duplicate', drop: 'drop', bad_signature: 'bad_signature' } as const;

/** `--chaos duplicate=0.3,reorder=5,delay=100-500,...` as the chaos settings of an endpoint. */
export function parseChaos(text: string): ChaosSettingsInput {
  const settings: ChaosSettingsInput = {};
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    const key = (eq < 0 ? item : item.slice(0, eq)).trim().replaceAll('-', '_');
    const value = eq < 0 ? '' : item.slice(eq + 1).trim();
    if (value === '') throw new UsageError(`--chaos: ${key} needs a value (${key}=...)`);
    if (key in PROBABILITIES) {
      const n = Number(value);
      if (!/^\d*\.?\d+$/.test(value) || n > 1)
        throw new UsageError(`--chaos: ${key} must be a probability from 0 to 1, got ${value}`);
      settings[PROBABILITIES[key as keyof typeof PROBABILITIES]] = n;
    } else if (key === 'reorder' || key === 'reorder_window') {
      if (!/^\d+$/.test(value) || Number(value) > 50)
        throw new UsageError(`--chaos: reorder must be a whole number of sends from 0 to 50, got ${value}`);
      settings.reorder_window = Number(value);
    } else if (key === 'delay') {
      const range = /^(\d+)(?:-(\d+))?$/.exec(value);
      const min = Number(range?.[1]);
      const max = Number(range?.[2] ?? range?.[1]);
      if (!range || min > max || max > 10_000)
        throw new UsageError(`--chaos: delay must be ms or a range min-max (at most 10000), got ${value}`);
      settings.delay = { min_ms: min, max_ms: max };
    } else if (key === 'seed') {
      if (value.length > 64) throw new UsageError('--chaos: seed must be at most 64 characters');
      settings.seed = value;
    } else {
      throw new UsageError(
        `--chaos: unknown setting ${key} (duplicate, reorder, delay, drop, bad_signature, seed)`,
      );
    }
  }
  if (Object.keys(settings).length === 0) throw new UsageError('--chaos needs at least one setting');
  return settings;
}

/** The settings in force, in the --chaos notation (what `listen` prints). */
export function describeChaos(chaos: ChaosSettings): string {
  const parts: string[] = [];
  if (chaos.duplicate > 0) parts.push(`duplicate=${chaos.duplicate}`);
  if (chaos.reorder_window > 1) parts.push(`reorder=${chaos.reorder_window}`);
  if (chaos.delay) parts.push(`delay=${chaos.delay.min_ms}-${chaos.delay.max_ms}`);
  if (chaos.drop > 0) parts.push(`drop=${chaos.drop}`);
  if (chaos.bad_signature > 0) parts.push(`bad_signature=${chaos.bad_signature}`);
  parts.push(`seed=${chaos.seed}`);
  return parts.join(',');
}
