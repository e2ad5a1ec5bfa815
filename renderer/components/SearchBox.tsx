import { useEffect, useRef, useState } from 'react';

interface Props {
  /** the search in effect (the store's) */
  value: string;
  onSearch: (text: string) => void;
  placeholder: string;
  testId: string;
  label?: string;
}

/**
 * A search field over a list: the search runs 250 ms after typing stops, or at once on Enter.
 * It keeps its own text while typing, so a re-read of the list never fights the cursor.
 */
export function SearchBox({ value, onSearch, placeholder, testId, label = 'Search' }: Props) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const run = (next: string) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (next.trim() !== value.trim()) onSearch(next.trim());
  };

  return (
    <input
      type="search"
      className="input search-input"
      aria-label={label}
      placeholder={placeholder}
      value={text}
      maxLength={200}
      onChange={(e) => {
        const next = e.target.value;
        setText(next);
        if (timer.current) clearTimeout(timer.current);
        timer.current = setTimeout(() => run(next), 250);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') run(text);
      }}
      data-testid={testId}
    />
  );
}
