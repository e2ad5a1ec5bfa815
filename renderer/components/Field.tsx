import type { InputHTMLAttributes, ReactNode } from 'react';
import { parseAmount } from '../lib/format';

/** A labelled form control: `<label class="field">` with its caption above the control. */
export function Field({ label, grow, children }: { label: ReactNode; grow?: boolean; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the children, inside the label
    <label className={grow ? 'field grow' : 'field'}>
      <span className="field-label">{label}</span>
      {children}
    </label>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'className' | 'value' | 'onChange'> & {
  value: string;
  onChange: (value: string) => void;
  testId: string;
};

/** A plain `.input` text (or number, email) input that reports its new text. */
export function TextInput({ value, onChange, testId, ...rest }: InputProps) {
  return (
    <input
      className="input"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      data-testid={testId}
      {...rest}
    />
  );
}

/**
 * A money amount typed in major units ("12.50"). Marked invalid once it holds text that `parseAmount`
 * refuses; `compact` gives the fixed-width `.input-amount` used in inline forms.
 */
export function AmountInput({
  value,
  onChange,
  testId,
  placeholder,
  compact,
  required,
}: {
  value: string;
  onChange: (value: string) => void;
  testId: string;
  placeholder: string;
  compact?: boolean;
  required?: boolean;
}) {
  return (
    <input
      className={compact ? 'input input-amount' : 'input'}
      inputMode="decimal"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder={placeholder}
      aria-invalid={value !== '' && parseAmount(value) === null}
      required={required}
      data-testid={testId}
    />
  );
}

/** A `.input` select that reports the chosen option's value. */
export function Select({
  value,
  onChange,
  testId,
  disabled,
  children,
}: {
  value: string | number;
  onChange: (value: string) => void;
  testId: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <select
      className="input"
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
      data-testid={testId}
    >
      {children}
    </select>
  );
}
