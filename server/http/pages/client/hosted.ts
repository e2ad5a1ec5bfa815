/**
 * The hosted checkout page's script (built into the page by scripts/page-assets.js). It follows the
 * checkout and the sandbox clock live by polling GET /pay/{id}/status (every 700 ms): the countdown
 * runs from the sandbox's `now` (not the browser's clock) and stands still while the sandbox clock
 * is frozen. It loads nothing from anywhere else (the app works offline).
 */
import type { CheckoutStatus } from '../../../contract/checkouts.js';
import { formatClock, formatTimestamp } from '../../../format/dates.js';
import { expiryFact, formatUnits, parseUnits, STATUS_LABELS, type Tone } from '../format.js';
import type { HostedCheckoutState, HostedPageData } from '../state.js';
import { all, byTestId, copyText, findTestId, readData, WORKSPACE_BASE } from './dom.js';

type Phase = 'open' | 'expired' | 'paid' | 'cancelled' | 'gone';

const S: HostedPageData & { gone?: boolean } = readData<HostedPageData>('checkout-state');

// ---- the sandbox clock, as last read from the server ----
let clock = { now: Date.parse(S.now), frozen: S.frozen, at: performance.now() };
const sandboxNow = (): number => (clock.frozen ? clock.now : clock.now + (performance.now() - clock.at));

// ---- formatting ----
const money = (amount: number): string => `${formatUnits(amount)} ${S.currency}`;
const two = (n: number): string => (n < 10 ? `0${n}` : String(n));
function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h ${two(m)}m`;
  if (h > 0) return `${h}h ${two(m)}m ${two(s % 60)}s`;
  return `${m}m ${two(s % 60)}s`;
}
// The same words as the server's first paint and the dashboard: "03 Dec 2026, 01:45 UTC".
const when = formatTimestamp;

// ---- what the customer sees ----
const PAID: readonly CheckoutStatus[] = ['paid', 'completed', 'partially_refunded', 'refunded'];
function phase(): Phase {
  if (S.gone) return 'gone';
  if (S.status === 'active') return sandboxNow() >= Date.parse(S.expires_at) ? 'expired' : 'open';
  if (PAID.includes(S.status)) return 'paid';
  return S.status === 'cancelled' ? 'cancelled' : 'expired';
}
const received = (): number =>
  S.status === 'active' ? S.received_amount : (S.paid_amount ?? S.received_amount);
const left = (): number | null => (S.amount === null ? null : Math.max(0, S.amount - S.received_amount));

function label(p: Phase): [string, Tone] {
  if (p === 'gone') return ['Unavailable', 'muted'];
  if (S.status === 'active') {
    if (p === 'expired') return ['Expired', 'muted'];
    return S.received_amount > 0 ? ['Partially paid', 'warn'] : ['Awaiting payment', ''];
  }
  return STATUS_LABELS[S.status] ?? [S.status, 'muted'];
}

const ICONS: Record<'ok' | 'muted' | 'bad', string> = {
  ok: '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"><path d="M5 12.5l4.5 4.5L19 7.5"/></svg>',
  muted:
    '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"><circle cx="12" cy="12" r="9"/><path d="M12 7v5l3 2"/></svg>',
  bad: '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"><path d="M7 7l10 10M17 7L7 17"/></svg>',
};

/** The end of the page's story: paid, cancelled, gone or expired, in words. */
function result(p: Exclude<Phase, 'open'>): void {
  let tone: keyof typeof ICONS;
  let title: string;
  const lines: [className: string, text: string][] = [];
  if (p === 'paid') {
    tone = 'ok';
    title = S.status === 'refunded' ? 'Payment refunded' : 'Payment received';
    lines.push(['big', money(received())]);
    lines.push(['', `Paid to ${S.merchant}${S.paid_at ? ` on ${when(S.paid_at)}` : ''}.`]);
    if (S.refunded_amount > 0) lines.push(['', `${money(S.refunded_amount)} refunded.`]);
    if (S.status === 'completed') lines.push(['', 'Confirmed on chain. You can close this page.']);
    else if (S.status === 'paid')
      lines.push(['', 'Waiting for network confirmations. You can close this page.']);
  } else if (p === 'cancelled') {
    tone = 'bad';
    title = 'This checkout was cancelled';
    lines.push(['', `${S.merchant} cancelled this payment request. No payment can be made to it.`]);
  } else if (p === 'gone') {
    tone = 'muted';
    title = 'This checkout no longer exists';
    lines.push(['', 'The sandbox was reset or the link is wrong.']);
  } else {
    tone = 'muted';
    title = 'This checkout has expired';
    // Expired early through the control API, expires_at is still ahead: no date then.
    const on = Date.parse(S.expires_at) <= sandboxNow() ? ` on ${when(S.expires_at)}` : '';
    lines.push(['', `It expired${on}. No payment can be made to it any more.`]);
    if (received() > 0 && S.amount !== null)
      lines.push(['big', `${formatUnits(received())} of ${money(S.amount)} arrived in time`]);
    lines.push(['', `Ask ${S.merchant} for a new payment link.`]);
  }
  const box = byTestId('result');
  box.replaceChildren();
  box.dataset.tone = tone;
  box.dataset.phase = p;
  const icon = document.createElement('div');
  icon.className = 'result-icon';
  icon.innerHTML = ICONS[tone];
  const heading = document.createElement('h2');
  heading.textContent = title;
  heading.dataset.testid = 'result-title';
  box.append(icon, heading);
  for (const [className, text] of lines) {
    const line = document.createElement('p');
    line.className = className;
    line.textContent = text;
    box.append(line);
  }
  if (p === 'paid' && S.success_url) {
    const back = document.createElement('a');
    back.className = 'btn';
    back.href = S.success_url;
    back.textContent = `Return to ${S.merchant}`;
    box.append(back);
  }
  box.hidden = false;
}

let shown = '';
function render(): void {
  const p = phase();
  document.body.dataset.phase = p;
  const pill = byTestId('status');
  const [text, tone] = label(p);
  pill.textContent = text;
  pill.className = `pill ${tone}`;
  pill.dataset.status = S.status;

  const countdown = byTestId('countdown');
  if (p === 'open') {
    const ms = Date.parse(S.expires_at) - sandboxNow();
    countdown.textContent = `Expires in ${duration(ms)}`;
    countdown.dataset.remaining = String(Math.max(0, Math.floor(ms / 1000)));
    countdown.dataset.frozen = String(clock.frozen);
    countdown.dataset.urgent = String(ms < 300_000);
    countdown.hidden = false;
  } else {
    countdown.hidden = true;
    countdown.textContent = '';
  }

  // The expiry line says what the status says: a time to come while open, the time it ran out.
  const expiry = expiryFact(S.status, S.expires_at, sandboxNow());
  byTestId('expiry').hidden = expiry === null;
  if (expiry) {
    byTestId('expiry-label').textContent = expiry.label;
    byTestId('expires-at').textContent = when(expiry.at);
  }

  const progress = byTestId('progress');
  const got = received();
  if (S.amount !== null && got > 0 && (p === 'open' || p === 'expired')) {
    progress.hidden = false;
    progress.dataset.tone = p === 'open' ? '' : 'warn';
    byTestId('progress-fill').style.width = `${Math.min(100, (got / S.amount) * 100).toFixed(1)}%`;
    byTestId('progress-text').textContent =
      `${formatUnits(got)} of ${money(S.amount)}${p === 'open' ? ' paid' : ' received'}`;
    const rest = left();
    byTestId('progress-left').textContent = p === 'open' && rest !== null ? `${money(rest)} left to pay` : '';
  } else {
    progress.hidden = true;
  }

  const rest = left();
  for (const el of all('[data-pay-amount]')) el.textContent = rest === null ? 'Any amount' : money(rest);
  for (const el of all('[data-copy-amount]'))
    el.dataset.copy = rest === null ? '' : formatUnits(rest).replace(/,/g, '');

  const clockLine = byTestId('sandbox-clock');
  clockLine.textContent = `Sandbox clock: ${formatClock(sandboxNow())}${clock.frozen ? ' · frozen' : ''}`;
  clockLine.dataset.frozen = String(clock.frozen);

  if (p !== 'open') {
    // No way to pay what cannot be paid: the options go, for good (a checkout never reopens).
    findTestId('payment-options')?.remove();
    byTestId('simulate-controls').hidden = true;
    const key = `${p}|${S.status}|${got}|${S.refunded_amount}`;
    if (key !== shown) {
      shown = key;
      result(p);
    }
  }
}

// ---- live: the server's state every 700 ms (and at once after a simulated payment) ----
let timer: ReturnType<typeof setTimeout> | undefined;
let inflight = false;
let again = false;
let stopped = false;
function apply(state: HostedCheckoutState): void {
  const serverNow = Date.parse(state.now);
  // Re-anchored when frozen or resumed, or when off by over a second (an advance): small network
  // jitter is ignored so the seconds never step back.
  if (state.frozen || state.frozen !== clock.frozen || Math.abs(serverNow - sandboxNow()) > 1000) {
    clock = { now: serverNow, frozen: state.frozen, at: performance.now() };
  }
  const { now: _now, frozen: _frozen, ...checkout } = state;
  Object.assign(S, checkout);
  render();
}
function poll(): void {
  if (stopped) return;
  if (inflight) {
    again = true;
    return;
  }
  clearTimeout(timer);
  inflight = true;
  fetch(`${WORKSPACE_BASE}/pay/${encodeURIComponent(S.id)}/status`, {
    cache: 'no-store',
    headers: { accept: 'application/json' },
  })
    .then(async (response) => {
      if (response.status === 404) {
        S.gone = true;
        stopped = true;
        render();
        return;
      }
      if (response.ok) apply((await response.json()) as HostedCheckoutState);
    })
    .catch(() => {
      // The sandbox is away for a moment: keep what is shown, ask again.
    })
    .then(() => {
      inflight = false;
      if (stopped) return;
      if (again) {
        again = false;
        poll();
      } else timer = setTimeout(poll, 700);
    });
}

// ---- chains ----
let selected = S.chains[0]?.chain ?? null;
for (const tab of all('[data-chain-tab]')) {
  tab.addEventListener('click', () => {
    selected = tab.dataset.chainTab ?? null;
    for (const t of all('[data-chain-tab]')) t.setAttribute('aria-selected', String(t === tab));
    for (const panel of all('[data-chain-panel]')) panel.hidden = panel.dataset.chainPanel !== selected;
  });
}

// ---- deposit addresses: one line, whole, in the largest size that fits ----
// The stylesheet sizes an address for a monospace font (--chars × 0.62em). A browser without one
// (a bare Linux Chromium has only a sans-serif) draws an EIP-55 address in proportional letters,
// wider or narrower by the mix of capitals the checksum gave it: measure it and shrink to fit.
function fitAddress(code: HTMLElement): void {
  code.style.fontSize = '';
  if (code.clientWidth === 0) return; // a hidden chain's panel: fitted when it is shown
  for (let i = 0; i < 4 && code.scrollWidth > code.clientWidth; i++) {
    const size = Number.parseFloat(getComputedStyle(code).fontSize);
    code.style.fontSize = `${Math.floor(((size * code.clientWidth) / code.scrollWidth) * 10) / 10}px`;
  }
}
const addresses = all('.field-address code.field-value');
for (const code of addresses) fitAddress(code);
// A new width (a turned phone, a chain's tab shown) fits them again.
const refit = new ResizeObserver((entries) => {
  for (const entry of entries) {
    const code = entry.target.querySelector<HTMLElement>('code.field-value');
    if (code) fitAddress(code);
  }
});
for (const code of addresses) {
  const field = code.closest('.field-address');
  if (field) refit.observe(field);
}

// ---- copy buttons ----
for (const button of all('[data-copy], [data-copy-amount]')) {
  button.addEventListener('click', () => {
    void copyText(button.dataset.copy ?? '').then(() => {
      button.textContent = 'Copied';
      button.dataset.copied = 'true';
      setTimeout(() => {
        button.textContent = 'Copy';
        button.dataset.copied = 'false';
      }, 1500);
    });
  });
}

// ---- sandbox tools: a wallet payment through the control API ----
const message = byTestId('simulate-message');
function say(text: string, tone: Tone = ''): void {
  message.textContent = text;
  message.dataset.tone = tone;
}
interface PaymentAnswer {
  payment?: { amount: number; chain: string | null };
  error?: string;
}
function simulate(amount?: number): Promise<void> {
  const body: { method: 'fiat' | 'crypto'; chain?: string | null; amount?: number } =
    S.method === 'fiat' ? { method: 'fiat' } : { method: 'crypto', chain: selected };
  if (amount !== undefined) body.amount = amount;
  const buttons = all<HTMLButtonElement>('[data-testid^="simulate-"]');
  for (const b of buttons) b.disabled = true;
  say('Sending a test payment…');
  return fetch(`${WORKSPACE_BASE}/sandbox/checkouts/${encodeURIComponent(S.id)}/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
    .then(async (response) => {
      const answer = (await response.json().catch(() => ({}))) as PaymentAnswer;
      if (!response.ok || !answer.payment) {
        say(answer.error ?? `The sandbox refused the payment (${response.status}).`, 'bad');
        return;
      }
      const chain = answer.payment.chain;
      const on = chain ? ` on ${S.chains.find((c) => c.chain === chain)?.name ?? chain}` : '';
      say(`${money(answer.payment.amount)} sent${on}.`, 'ok');
      byTestId<HTMLInputElement>('simulate-amount').value = '';
    })
    .catch(() => say('The sandbox did not answer.', 'bad'))
    .then(() => {
      for (const b of buttons) b.disabled = false;
      poll();
    });
}
findTestId('simulate-full')?.addEventListener('click', () => void simulate());
function partial(): void {
  const amount = parseUnits(byTestId<HTMLInputElement>('simulate-amount').value);
  if (amount === null) {
    say(`Enter an amount in ${S.currency}, like 4.00 (up to 6 decimals).`, 'bad');
    return;
  }
  void simulate(amount);
}
byTestId('simulate-partial').addEventListener('click', partial);
byTestId('simulate-amount').addEventListener('keydown', (event) => {
  if (event.key === 'Enter') partial();
});

render();
setInterval(render, 250);
timer = setTimeout(poll, 700);
