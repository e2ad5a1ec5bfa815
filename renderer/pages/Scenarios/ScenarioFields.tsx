import type { ChangeEvent } from 'react';
import { Field } from '../../components/Field';

/** A scenario file (YAML or JSON) chosen from disk: its text is handed to `onText`. */
export function ScenarioUpload({
  label,
  onText,
  testId,
}: {
  label: string;
  onText: (text: string) => void;
  testId: string;
}) {
  const upload = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Cleared at once: choosing the same file again reads it again.
    event.target.value = '';
    if (file) void file.text().then(onText);
  };
  return (
    <Field label={label}>
      <input
        className="input"
        type="file"
        accept=".yaml,.yml,.json,text/yaml,application/json"
        onChange={upload}
        data-testid={testId}
      />
    </Field>
  );
}

/** A scenario's text, pasted or loaded, in a monospace area. */
export function ScenarioText({
  label,
  value,
  onChange,
  placeholder,
  testId,
}: {
  label: string;
  value: string;
  onChange: (text: string) => void;
  placeholder: string;
  testId: string;
}) {
  return (
    <Field label={label}>
      <textarea
        className="input scenario-text"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
        placeholder={placeholder}
        data-testid={testId}
      />
    </Field>
  );
}
