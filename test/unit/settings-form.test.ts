import { describe, expect, it } from 'vitest';
import { formFromSettings, validateSettings } from '../../renderer/pages/Settings/validate.js';

const defaults = {
  platform_rate: 0,
  settlement_delay_seconds: 60,
  application_review: 'auto' as const,
  rate_limit_per_minute: 1000,
  concurrency_limit: 10,
  webhook_timeout_ms: 10_000,
};

describe('the settings form', () => {
  it('shows settings in human units: percent, the largest whole delay unit, seconds', () => {
    expect(formFromSettings(defaults)).toEqual({
      platformRate: '0',
      settlementDelay: '1',
      settlementUnit: 'minutes',
      applicationReview: 'auto',
      rateLimit: '1000',
      concurrencyLimit: '10',
      webhookTimeout: '10',
    });
    const other = formFromSettings({
      ...defaults,
      platform_rate: 150,
      settlement_delay_seconds: 2 * 86400,
      webhook_timeout_ms: 2500,
    });
    expect(other).toMatchObject({
      platformRate: '1.5',
      settlementDelay: '2',
      settlementUnit: 'days',
      webhookTimeout: '2.5',
    });
    expect(formFromSettings({ ...defaults, platform_rate: 105 }).platformRate).toBe('1.05');
    expect(formFromSettings({ ...defaults, settlement_delay_seconds: 0 }).settlementUnit).toBe('seconds');
  });

  it('round-trips: the form of a setting saves that setting', () => {
    const settings = {
      ...defaults,
      platform_rate: 275,
      settlement_delay_seconds: 5400,
      webhook_timeout_ms: 1,
    };
    const checked = validateSettings(formFromSettings(settings));
    expect(checked).toEqual({ ok: true, patch: settings });
  });

  it('refuses bad input with a message in the field’s own unit, never a pattern', () => {
    const form = formFromSettings(defaults);
    const checked = validateSettings({
      ...form,
      platformRate: '101',
      settlementDelay: '31',
      settlementUnit: 'days',
      rateLimit: '-1',
      concurrencyLimit: '1.5',
      webhookTimeout: '121',
    });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors).toEqual({
      platformRate: 'The platform rate is at most 100 %.',
      settlementDelay: 'The settlement delay is at most 30 days.',
      rateLimit: 'Enter a whole number of requests per minute (0 turns the limit off).',
      concurrencyLimit: 'Enter a whole number of requests (0 turns the limit off).',
      webhookTimeout: 'The webhook timeout is between 0.001 and 120 seconds.',
    });
    const hours = validateSettings({ ...form, settlementDelay: '721', settlementUnit: 'hours' });
    expect(hours.ok ? '' : hours.errors.settlementDelay).toBe(
      'The settlement delay is at most 720 hours (30 days).',
    );
    for (const message of Object.values(checked.errors)) expect(message).not.toMatch(/[\^$\\]/);
  });
});
