/**
 * `--ignore` patterns: the differences a team accepts, by the path a difference names.
 *
 * - `checkout.metadata`: that field and everything under it; list items are not named
 *   (`payments.amount` is every payment's amount; `payments[0].amount` works too, for any item);
 * - `*` stands for any run of fields: `*.created_at` is created_at at any depth (the top included),
 *   `checkout.*.id` any id under checkout;
 * - `webhook:card.transaction`: every difference in that event type's webhooks (missing, extra,
 *   order, payload); `webhook:checkout.paid.data.fee` one field of its payload; `webhook:*` all;
 * - `(status)` the status codes, `(body)` whole answers.
 */

/** A path as patterns see it: without list indexes. */
const plain = (path: string) => path.replace(/\[\d*\]/g, '');

const escapeRegExp = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** A matcher for the patterns; throws a message naming a pattern that cannot be one. */
export function ignoreMatcher(patterns: readonly string[]): (path: string) => boolean {
  const matchers = patterns.map((pattern) => {
    const text = plain(pattern.trim());
    if (text === '' || /\s/.test(text) || /\.\./.test(text) || text.startsWith('.') || text.endsWith('.'))
      throw new Error(
        `--ignore ${JSON.stringify(pattern)}: not a field path (e.g. checkout.metadata, *.created_at, webhook:card.transaction)`,
      );
    const body = text
      .split('*')
      .map(escapeRegExp)
      .join('.*')
      // a leading `*.` may stand for nothing: `*.created_at` covers a top-level created_at too
      .replace(/^\.\*\\\./, '(?:.*\\.)?')
      .replace(/^(webhook:)\.\*\\\./, '$1(?:.*\\.)?');
    return new RegExp(`^${body}(?:[.:].*)?$`);
  });
  return (path: string) => {
    const target = plain(path);
    return matchers.some((m) => m.test(target));
  };
}
