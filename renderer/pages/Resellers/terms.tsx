import type { ResellerConnection, ResellerConnectionStatus } from '../../api/types';
import { AmountInput, Field } from '../../components/Field';
import type { Tone } from '../../components/StatusBadge';
import { formatAmount, parseAmount } from '../../lib/format';

export const CONNECTION_TONE: Record<ResellerConnectionStatus, Tone> = {
  active: 'success',
  revoked: 'neutral',
};

/** A connection's terms as typed: rate in percent, caps in major units (blank = no cap). */
export interface TermsText {
  rate: string;
  min: string;
  max: string;
}

export const EMPTY_TERMS: TermsText = { rate: '', min: '', max: '' };

export interface Terms {
  /** Basis points (10000 = 100 %). */
  rate: number;
  /** Minor units; null = no cap. */
  min_fee: number | null;
  max_fee: number | null;
}

/** "2" → 200, "2.5" → 250, "0.01" → 1 (basis points, integer); null past two decimals or above 100 %. */
export function parseRate(text: string): number | null {
  const match = /^\s*(\d{1,3})(?:[.,](\d{0,2}))?\s*$/.exec(text);
  if (!match) return null;
  const bps = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return bps <= 10_000 ? bps : null;
}

/** 250 → "2.5": the rate as the form shows it for editing. */
export const rateText = (bps: number) => String(bps / 100);

/** A cap typed in major units: blank is no cap (null); undefined when the text is not an amount. */
const parseCap = (text: string): number | null | undefined =>
  text.trim() === '' ? null : (parseAmount(text) ?? undefined);

/** A cap shown in a table: "0.50", or "—" for no cap. */
export const formatCap = (minor: number | null) => (minor === null ? '—' : formatAmount(minor));

/** The terms a connection has, as the edit form starts from. */
export const termsTextOf = (c: Pick<ResellerConnection, 'rate' | 'min_fee' | 'max_fee'>): TermsText => ({
  rate: rateText(c.rate),
  min: c.min_fee === null ? '' : formatAmount(c.min_fee).replace(/,/g, ''),
  max: c.max_fee === null ? '' : formatAmount(c.max_fee).replace(/,/g, ''),
});

/** The typed terms read, with what is wrong with them (for the form's hint); terms null when invalid. */
export function readTerms(text: TermsText): { terms: Terms | null; problem: string | null } {
  const rate = parseRate(text.rate);
  const min = parseCap(text.min);
  const max = parseCap(text.max);
  if (text.rate.trim() !== '' && rate === null) {
    return { terms: null, problem: 'The rate is a percentage from 0 to 100, with at most two decimals.' };
  }
  if (min === undefined || max === undefined) {
    return { terms: null, problem: 'A fee cap is an amount such as 0.50; leave it empty for no cap.' };
  }
  if (min !== null && max !== null && min > max) {
    return { terms: null, problem: 'The minimum fee cannot be more than the maximum fee.' };
  }
  if (rate === null) return { terms: null, problem: null };
  return { terms: { rate, min_fee: min, max_fee: max }, problem: null };
}

/** Rate (%), minimum and maximum fee: one inline row, shared by the create, edit and provision forms. */
export function TermsFields({
  value,
  onChange,
  prefix,
}: {
  value: TermsText;
  onChange: (value: TermsText) => void;
  /** Test ids: `${prefix}-rate-input`, `${prefix}-min-fee-input`, `${prefix}-max-fee-input`. */
  prefix: string;
}) {
  const { problem } = readTerms(value);
  return (
    <>
      <div className="terms-fields">
        <Field label="Rate (%)">
          <input
            className="input"
            inputMode="decimal"
            value={value.rate}
            onChange={(e) => onChange({ ...value, rate: e.target.value })}
            placeholder="2.5"
            aria-invalid={value.rate !== '' && parseRate(value.rate) === null}
            required
            data-testid={`${prefix}-rate-input`}
          />
        </Field>
        <Field label="Min fee">
          <AmountInput
            value={value.min}
            onChange={(min) => onChange({ ...value, min })}
            placeholder="No minimum"
            testId={`${prefix}-min-fee-input`}
          />
        </Field>
        <Field label="Max fee">
          <AmountInput
            value={value.max}
            onChange={(max) => onChange({ ...value, max })}
            placeholder="No maximum"
            testId={`${prefix}-max-fee-input`}
          />
        </Field>
      </div>
      {problem && (
        <p className="field-error" data-testid={`${prefix}-terms-problem`}>
          {problem}
        </p>
      )}
    </>
  );
}
