import { describe, expect, it } from 'vitest';
import { normaliseBrowserLocale, normaliseLocale } from '../../renderer/lib/locale.js';

// The dashboard formats with the browser's language: one reported with a POSIX modifier must not
// break Intl (and with it the home charts).

describe('normaliseLocale', () => {
  it.each([
    ['en-US@posix', 'en-US'],
    ['de_DE.UTF-8', 'de-DE'],
    ['fr-FR@euro', 'fr-FR'],
    ['C', 'en-US'],
    ['POSIX', 'en-US'],
    ['', 'en-US'],
    [undefined, 'en-US'],
    ['not a tag!', 'en-US'],
    ['en-GB', 'en-GB'],
    ['zh-Hant-TW', 'zh-Hant-TW'],
  ])('%s → %s', (tag, expected) => {
    expect(normaliseLocale(tag)).toBe(expected);
    expect(() => new Intl.NumberFormat(normaliseLocale(tag))).not.toThrow();
  });

  it('makes navigator.language usable by Intl, and leaves a valid one alone', () => {
    const posix = { language: 'en-US@posix', languages: ['en-US@posix', 'en-US'] } as unknown as Navigator;
    normaliseBrowserLocale(posix);
    expect(posix.language).toBe('en-US');
    expect(posix.languages).toEqual(['en-US']);
    expect(() => new Intl.NumberFormat(posix.language)).not.toThrow();
    const fine = { language: 'de-DE', languages: ['de-DE', 'en'] } as unknown as Navigator;
    normaliseBrowserLocale(fine);
    expect(fine).toEqual({ language: 'de-DE', languages: ['de-DE', 'en'] });
  });
});
