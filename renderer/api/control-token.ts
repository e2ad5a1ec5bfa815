/**
 * The control token (`svc-sandbox serve --control-token`) as the dashboard holds it: a same-site
 * cookie, because EventSource cannot send headers and the sandbox accepts the token from its
 * `svc_control_token` cookie as from the X-SVC-Control-Token header. SameSite=Strict: no other
 * site's page can make the browser send it.
 */
const COOKIE = 'svc_control_token';

export function saveControlToken(token: string): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  // 400 days: the longest a browser keeps a cookie; the token changes only with the sandbox's flag.
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from older Firefox and Safari
  document.cookie = `${COOKIE}=${encodeURIComponent(token)}; Path=/; SameSite=Strict; Max-Age=34560000${secure}`;
}

export function hasControlToken(): boolean {
  return document.cookie.split(';').some((pair) => pair.trim().startsWith(`${COOKIE}=`));
}

type Listener = () => void;
const listeners = new Set<Listener>();
let required = false;

/** A control call was refused for want of the token (client.ts calls this on such a 401). */
export function controlTokenRequired(): void {
  if (required) return;
  required = true;
  for (const listener of listeners) listener();
}

export function subscribeControlToken(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isControlTokenRequired(): boolean {
  return required;
}
