import type { SettingsPatch } from '../../../server/contract/settings.js';

/** The editable settings as typed in the form: human units (percent, seconds), as text. */
export interface SettingsForm {
  platformRate: string;
  settlementDelay: string;
  settlementUnit: 'seconds' | 'minutes' | 'hours' | 'days';
  applicationReview: 'auto' | 'manual';
  rateLimit: string;
  concurrencyLimit: string;
  webhookTimeout: string;
}

export const DELAY_UNITS = { seconds: 1, minutes: 60, hours: 3600, days: 86400 } as const;
const MAX_DELAY_SECONDS = 30 * 86400;

const group = (n: number) => n.toLocaleString('en-US');

/** "1.5" → 150 (bps); null when not a percentage with at most 2 decimals. */
function percentToBps(text: string): number | null {
  const match = /^\s*(\d{1,3})(?:[.,](\d{0,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

const wholeNumber = (text: string): number | null => (/^\s*\d{1,12}\s*$/.test(text) ? Number(text) : null);

/**
 * Checks the form and makes the PATCH body, or says what is wrong field by field — in the unit the
 * field is typed in ("at most 30 days", never the seconds the API counts in).
 */
export function validateSettings(
  form: SettingsForm,
): { ok: true; patch: SettingsPatch } | { ok: false; errors: Partial<Record<keyof SettingsForm, string>> } {
  const errors: Partial<Record<keyof SettingsForm, string>> = {};

  const bps = percentToBps(form.platformRate);
  if (bps === null) errors.platformRate = 'Enter a percentage, e.g. 1.5 (at most 2 decimals).';
  else if (bps > 10000) errors.platformRate = 'The platform rate is at most 100 %.';

  const unit = DELAY_UNITS[form.settlementUnit];
  const delay = wholeNumber(form.settlementDelay);
  const maxInUnit = Math.floor(MAX_DELAY_SECONDS / unit);
  if (delay === null) errors.settlementDelay = `Enter a whole number of ${form.settlementUnit}.`;
  else if (delay * unit > MAX_DELAY_SECONDS) {
    const days = form.settlementUnit === 'days' ? '' : ' (30 days)';
    errors.settlementDelay = `The settlement delay is at most ${group(maxInUnit)} ${form.settlementUnit}${days}.`;
  }

  const rate = wholeNumber(form.rateLimit);
  if (rate === null)
    errors.rateLimit = 'Enter a whole number of requests per minute (0 turns the limit off).';
  else if (rate > 10_000_000) errors.rateLimit = 'At most 10,000,000 requests per minute.';

  const concurrency = wholeNumber(form.concurrencyLimit);
  if (concurrency === null)
    errors.concurrencyLimit = 'Enter a whole number of requests (0 turns the limit off).';
  else if (concurrency > 100_000) errors.concurrencyLimit = 'At most 100,000 requests at once.';

  const timeout = /^\s*(\d{1,3})(?:[.,](\d{0,3}))?\s*$/.exec(form.webhookTimeout);
  const timeoutMs = timeout ? Number(timeout[1]) * 1000 + Number((timeout[2] ?? '').padEnd(3, '0')) : null;
  if (timeoutMs === null) errors.webhookTimeout = 'Enter a number of seconds, e.g. 10 or 2.5.';
  else if (timeoutMs < 1 || timeoutMs > 120_000) {
    errors.webhookTimeout = 'The webhook timeout is between 0.001 and 120 seconds.';
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    patch: {
      platform_rate: bps!,
      settlement_delay_seconds: delay! * unit,
      application_review: form.applicationReview,
      rate_limit_per_minute: rate!,
      concurrency_limit: concurrency!,
      webhook_timeout_ms: timeoutMs!,
    },
  };
}

/** The form for settings as the server has them: the delay in the largest unit that divides it. */
export function formFromSettings(settings: {
  platform_rate: number;
  settlement_delay_seconds: number;
  application_review: 'auto' | 'manual';
  rate_limit_per_minute: number;
  concurrency_limit: number;
  webhook_timeout_ms: number;
}): SettingsForm {
  const delay = settings.settlement_delay_seconds;
  const settlementUnit =
    delay > 0 && delay % 86400 === 0
      ? 'days'
      : delay > 0 && delay % 3600 === 0
        ? 'hours'
        : delay > 0 && delay % 60 === 0
          ? 'minutes'
          : 'seconds';
  const bps = settings.platform_rate;
  return {
    platformRate: `${Math.floor(bps / 100)}${
      bps % 100
        ? `.${String(bps % 100)
            .padStart(2, '0')
            .replace(/0$/, '')}`
        : ''
    }`,
    settlementDelay: String(delay / DELAY_UNITS[settlementUnit]),
    settlementUnit,
    applicationReview: settings.application_review,
    rateLimit: String(settings.rate_limit_per_minute),
    concurrencyLimit: String(settings.concurrency_limit),
    webhookTimeout: String(settings.webhook_timeout_ms / 1000),
  };
}
