/**
 * A browser language as Intl accepts it. A browser started from a POSIX environment (LANG=C,
 * C.UTF-8) reports `en-US@posix`: the `@modifier` (and a `.codeset`, `_` for `-`) are not BCP 47,
 * and `new Intl.NumberFormat('en-US@posix')` throws. Whatever Intl still refuses becomes `en-US`.
 */
export function normaliseLocale(tag: string | undefined): string {
  const cleaned = (tag ?? '').split('@')[0]!.split('.')[0]!.replace(/_/g, '-').trim();
  if (cleaned === '' || cleaned === 'C' || cleaned.toUpperCase() === 'POSIX') return 'en-US';
  try {
    return Intl.getCanonicalLocales(cleaned)[0] ?? 'en-US';
  } catch {
    return 'en-US';
  }
}

/**
 * Makes `navigator.language(s)` valid tags for the code that formats with them as it loads (the
 * chart library builds its number format from `navigator.language` when its module runs). Called
 * once at start-up, before any chunk that formats loads; a valid language is left as it is.
 */
export function normaliseBrowserLocale(nav: Navigator = navigator): void {
  const language = normaliseLocale(nav.language);
  if (language === nav.language && nav.languages.every((tag) => normaliseLocale(tag) === tag)) return;
  const languages = Object.freeze([...new Set([language, ...nav.languages.map(normaliseLocale)])]);
  try {
    Object.defineProperty(nav, 'language', { configurable: true, get: () => language });
    Object.defineProperty(nav, 'languages', { configurable: true, get: () => languages });
  } catch {
    // a browser that refuses: the chart says it cannot be shown, the figures stay
  }
}
