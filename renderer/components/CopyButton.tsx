import { useEffect, useState } from 'react';

interface Props {
  value: string;
  label?: string;
  testId?: string;
}

/** Copies a value (a key, a URL) to the clipboard and says so for a moment. */
export function CopyButton({ value, label = 'Copy', testId }: Props) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm copy-btn"
      data-testid={testId}
      data-state={state}
      onClick={copy}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : label}
    </button>
  );
}
