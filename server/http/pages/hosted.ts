import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { SandboxClock } from '../../clock.js';
import type { Checkout } from '../../contract/checkouts.js';
import type { Env } from '../../contract/common.js';
import { IdParams } from '../../contract/common.js';
import type { CheckoutService } from '../../domain/checkouts/service.js';
import { lazy } from '../../lazy-require.js';
import { escapeHtml } from './html.js';

const formatAmount = (amount: number | null, currency: string): string =>
  amount === null
    ? `Any amount of ${currency}`
    : `${(amount / 1_000_000).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })} ${currency}`;

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;color:#1d2433}
main{max-width:560px;margin:40px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 2px 12px #0001}
h1{font-size:22px;margin:0 0 4px}.amount{font-size:30px;font-weight:700;margin:12px 0}
.status{display:inline-block;padding:2px 10px;border-radius:999px;background:#e8edff;color:#2446c7;font-size:13px}
.chain{border:1px solid #e3e6ec;border-radius:8px;padding:12px;margin:10px 0;display:flex;gap:14px;align-items:center}.qr{flex:none;width:112px;height:112px}
code{word-break:break-all;font-size:13px}.muted{color:#6b7385;font-size:13px}
button{padding:10px 18px;border-radius:8px;border:0;background:#2446c7;color:#fff;font-size:15px;cursor:pointer}
button.secondary{background:#e3e6ec;color:#1d2433}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

const CHAIN_NAMES: Record<string, string> = {
  ethereum: 'Ethereum',
  tron: 'Tron',
  bitcoin: 'Bitcoin',
  polygon: 'Polygon',
  bsc: 'BNB Smart Chain',
};

/** A scannable QR code (inline SVG) for a deposit address, as a wallet app would read it. */
const qrcode = lazy<typeof import('qrcode')>('qrcode');
const qr = (address: string): Promise<string> =>
  qrcode().toString(address, { type: 'svg', margin: 1, width: 112, errorCorrectionLevel: 'M' });

/** `now` is the sandbox clock's time: the countdown runs on sandbox time, not the browser's. */
async function checkoutPage(checkout: Checkout, now: string): Promise<string> {
  const codes = await Promise.all(checkout.crypto_chains.map((c) => qr(c.address)));
  const chains = checkout.crypto_chains
    .map(
      (
        c,
        i,
      ) => `<div class="chain" data-testid="chain-${escapeHtml(c.chain)}"><div class="qr" data-testid="qr-${escapeHtml(c.chain)}">${codes[i]}</div>
        <div><b>${escapeHtml(CHAIN_NAMES[c.chain] ?? c.chain)}</b> <span class="muted">${c.tokens.map((t) => escapeHtml(t.name)).join(' · ')}</span><br><code>${escapeHtml(c.address)}</code></div></div>`,
    )
    .join('');
  const fiat = checkout.fiat
    ? `<p><a href="${escapeHtml(checkout.fiat.session_url)}">Pay by card</a></p>`
    : '';
  return page(
    checkout.title,
    `<h1 data-testid="title">${escapeHtml(checkout.title)}</h1>
    ${checkout.description ? `<p class="muted">${escapeHtml(checkout.description)}</p>` : ''}
    <div class="amount" data-testid="amount">${escapeHtml(formatAmount(checkout.amount, checkout.currency))}</div>
    <p>Status: <span class="status" data-testid="status">${escapeHtml(checkout.status)}</span>
      <span class="muted" data-testid="countdown" data-expires="${escapeHtml(checkout.expires_at)}"></span></p>
    ${chains}${fiat}
    <p class="muted">svc-sandbox hosted checkout · test funds only</p>
    <script>
      const el = document.querySelector('[data-testid=countdown]');
      const end = Date.parse(el.dataset.expires);
      const skew = Date.parse(${JSON.stringify(now)}) - Date.now();
      const tick = () => {
        const left = Math.max(0, end - (Date.now() + skew));
        const s = Math.floor(left / 1000);
        el.textContent = left > 0 ? 'expires in ' + Math.floor(s / 3600) + 'h ' + Math.floor(s % 3600 / 60) + 'm ' + (s % 60) + 's' : '';
      };
      tick(); setInterval(tick, 1000);
      setInterval(async () => {
        const r = await fetch(location.pathname + '/status');
        if (r.ok) { const j = await r.json(); document.querySelector('[data-testid=status]').textContent = j.status; }
      }, 2000);
    </script>`,
  );
}

function fiatPage(checkout: Checkout): string {
  return page(
    `Pay ${checkout.title}`,
    `<h1>Card payment</h1><p class="muted">Sandbox stand-in for the fiat payment provider.</p>
    <div class="amount">${escapeHtml(formatAmount(checkout.amount, checkout.currency))}</div>
    <p>Status: <span class="status" data-testid="status">${escapeHtml(checkout.status)}</span></p>
    <p><button data-testid="pay" ${checkout.status === 'active' ? '' : 'disabled'}>Pay</button>
       <button class="secondary" data-testid="cancel">Cancel</button></p>
    <p class="muted" data-testid="message"></p>
    <script>
      const success = ${JSON.stringify(checkout.fiat?.success_url ?? null)}, cancel = ${JSON.stringify(checkout.fiat?.cancel_url ?? null)};
      document.querySelector('[data-testid=pay]').onclick = async () => {
        const r = await fetch('/sandbox/checkouts/${checkout.id}/payments', { method: 'POST',
          headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: 'fiat' }) });
        const j = await r.json();
        if (!r.ok) { document.querySelector('[data-testid=message]').textContent = j.error; return; }
        if (success) location.href = success; else document.querySelector('[data-testid=status]').textContent = j.checkout.status;
      };
      document.querySelector('[data-testid=cancel]').onclick = () => {
        if (cancel) location.href = cancel; else document.querySelector('[data-testid=message]').textContent = 'Cancelled';
      };
    </script>`,
  );
}

/** Hosted pages: the checkout page shared with a customer, and the fiat provider's session page. */
export interface HostedPageRoutesDeps {
  clock: Pick<SandboxClock, 'nowIso'>;
  checkouts: Pick<CheckoutService, 'hosted'>;
  /** the listener's environment */
  env: Env;
}

export const hostedPageRoutes: FastifyPluginAsyncTypebox<HostedPageRoutesDeps> = async (
  app,
  { clock, checkouts, env },
) => {
  const load = (id: string): Checkout => checkouts.hosted(id, env);
  const html = (reply: FastifyReply, body: string) =>
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(body);

  app.get('/pay/:id', { schema: { hide: true, params: IdParams } }, async (request, reply) =>
    html(reply, await checkoutPage(load(request.params.id), clock.nowIso())),
  );
  app.get('/pay/:id/fiat', { schema: { hide: true, params: IdParams } }, async (request, reply) => {
    return html(reply, fiatPage(load(request.params.id)));
  });
  app.get(
    '/pay/:id/status',
    {
      schema: {
        hide: true,
        params: IdParams,
        response: {
          200: Type.Object({ status: Type.String(), paid_amount: Type.Union([Type.Integer(), Type.Null()]) }),
        },
      },
    },
    async (request) => {
      const checkout = load(request.params.id);
      return { status: checkout.status, paid_amount: checkout.paid_amount };
    },
  );
};
