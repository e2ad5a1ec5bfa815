import { Fragment } from 'react';

/**
 * An email or web address that wraps only where a reader expects it to: before an "@", a "." or a
 * "/" (a `<wbr>` at each), never inside a word as `overflow-wrap: anywhere` would ("northwind.exam"
 * / "ple"). The text reads and copies unchanged.
 */
export function Breakable({ text }: { text: string }) {
  const parts: { at: number; part: string }[] = [];
  let at = 0;
  for (const part of text.split(/(?=[@./])/)) {
    parts.push({ at, part });
    at += part.length;
  }
  return (
    <>
      {parts.map(({ at, part }) => (
        <Fragment key={at}>
          {at > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
