/** What the pages' scripts share: finding elements, reading the page's data, copying text. */

/** The element with `data-testid="id"` (the pages' stable handles), if the page has it. */
export const findTestId = <T extends HTMLElement = HTMLElement>(id: string): T | null =>
  document.querySelector<T>(`[data-testid="${id}"]`);

/** The element with `data-testid="id"`; a page without it is a bug. */
export function byTestId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = findTestId<T>(id);
  if (!element) throw new Error(`the page has no [data-testid="${id}"]`);
  return element;
}

export const all = <T extends HTMLElement = HTMLElement>(selector: string): T[] => [
  ...document.querySelectorAll<T>(selector),
];

/** The data the server wrote into the page (`<script type="application/json" id="…">`). */
export function readData<T>(id: string): T {
  return JSON.parse(document.getElementById(id)?.textContent ?? 'null') as T;
}

/** The clipboard where the page may use it (a secure context), else the old selection trick. */
export function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext)
    return navigator.clipboard.writeText(text).catch(() => fallbackCopy(text));
  fallbackCopy(text);
  return Promise.resolve();
}

function fallbackCopy(text: string): void {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    document.execCommand('copy');
  } catch {
    // nothing more to try
  }
  area.remove();
}

/**
 * The path prefix of the page's workspace (`/w/<id>` for any but the default one): the page's own
 * calls go to the same workspace it was opened in.
 */
export const WORKSPACE_BASE = /^\/w\/[^/]+/.exec(location.pathname)?.[0] ?? '';
