interface Props<T extends string> {
  options: readonly T[];
  value: T;
  onChange: (value: T) => void;
  /** data-testid of each option: `${testIdPrefix}-${option}` */
  testIdPrefix: string;
  label: (option: T) => string;
  ariaLabel?: string;
}

/** A small segmented control that filters a list (deliveries by status, requests by status class). */
export function FilterTabs<T extends string>({
  options,
  value,
  onChange,
  testIdPrefix,
  label,
  ariaLabel = 'Filter by status',
}: Props<T>) {
  return (
    <fieldset className="segmented segmented-sm" aria-label={ariaLabel}>
      {options.map((option) => (
        <button
          key={option}
          type="button"
          className={`segmented-item ${value === option ? 'active' : ''}`}
          aria-pressed={value === option}
          onClick={() => onChange(option)}
          data-testid={`${testIdPrefix}-${option}`}
        >
          {label(option)}
        </button>
      ))}
    </fieldset>
  );
}
