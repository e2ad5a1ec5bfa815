import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxClock } from '../../clock.js';
import type { Checkout, CheckoutInspection, CheckoutStatus } from '../../contract/checkouts.js';
import type { Env } from '../../contract/common.js';
import { IdParams } from '../../contract/common.js';
import type { CheckoutService } from '../../domain/checkouts/service.js';
import type { MerchantService } from '../../domain/merchants/service.js';
import type { SettingsService } from '../../domain/settings/service.js';
import { NotFoundError } from '../../errors.js';
import { formatTimestamp } from '../../format/dates.js';
import { lazy } from '../../runtime/lazy-require.js';
import type { Use } from '../types.js';
import FIAT_SCRIPT from './client/fiat.ts?page-script';
import HOSTED_CSS from './client/hosted.css?page-style';
import HOSTED_SCRIPT from './client/hosted.ts?page-script';
import { expiryFact, formatMinor, STATUS_LABELS } from './format.js';
import { chainName, escapeHtml, pageDocument, pagePolicy, scriptJson } from './html.js';
import { type FiatPageData, HostedCheckoutState, type HostedPageData } from './state.js';

/** Hosted pages: the checkout page shared with a customer, and the fiat provider's session page. */
export interface HostedPageRoutesDeps {
  clock: Pick<SandboxClock, 'nowIso' | 'frozen'>;
  checkouts: Pick<CheckoutService, 'inspect'>;
  merchants: Pick<MerchantService, 'get'>;
  settings: Pick<SettingsService, 'get'>;
}

const qrcode = lazy<typeof import('qrcode')>('qrcode');

/** A scannable QR code (inline SVG) for a deposit address, as a wallet app would read it. */
const qr = (address: string): Promise<string> =>
  qrcode().toString(address, { type: 'svg', margin: 1, width: 176, errorCorrectionLevel: 'M' });

/** A sandbox timestamp as the dashboard writes it (UTC: the sandbox clock is not the viewer's). */
const utc = formatTimestamp;

function statusPill(status: string, received: number, open: boolean): string {
  const [label, tone] =
    status === 'active' && !open
      ? ['Expired', 'muted']
      : status === 'active' && received > 0
        ? ['Partially paid', 'warn']
        : status === 'active'
          ? ['Awaiting payment', '']
          : (STATUS_LABELS[status as CheckoutStatus] ?? [status, 'muted']);
  return `<span class="pill ${tone}" data-testid="status" data-status="${escapeHtml(status)}">${escapeHtml(label)}</span>`;
}

const initial = (name: string): string => (name.trim().charAt(0) || '?').toUpperCase();

function topbar(merchant: string, env: Env): string {
  return `<header class="topbar"><div class="brand"><div class="avatar" aria-hidden="true">${escapeHtml(initial(merchant))}</div>
<div class="brand-name" data-testid="merchant">${escapeHtml(merchant)}</div></div>
<span class="badge" data-testid="env-badge">${env === 'test' ? 'Test mode' : 'Sandbox production'}</span></header>`;
}

async function checkoutPage(
  view: CheckoutInspection,
  merchant: string,
  state: HostedCheckoutState,
  env: Env,
): Promise<string> {
  const { checkout } = view;
  const open = checkout.status === 'active' && Date.parse(state.now) < Date.parse(checkout.expires_at);
  // The customer reads the order by its title and the merchant's reference, never by its id.
  const expiry = expiryFact(checkout.status, checkout.expires_at, Date.parse(state.now));
  const codes = open ? await Promise.all(checkout.crypto_chains.map((c) => qr(c.address))) : [];
  const left = checkout.amount === null ? null : checkout.amount - view.received_amount;
  const payAmount = left === null ? 'Any amount' : formatMinor(left, checkout.currency);
  const tabs =
    checkout.crypto_chains.length > 1
      ? `<div class="tabs" role="tablist" aria-label="Network">${checkout.crypto_chains
          .map(
            (c, i) =>
              `<button type="button" role="tab" class="tab" data-chain-tab="${escapeHtml(c.chain)}" data-testid="chain-tab-${escapeHtml(c.chain)}" aria-selected="${i === 0}">${escapeHtml(chainName(c.chain))}</button>`,
          )
          .join('')}</div>`
      : '';
  const panels = checkout.crypto_chains
    .map((c, i) => {
      const chain = escapeHtml(c.chain);
      const name = escapeHtml(chainName(c.chain));
      const tokens = c.tokens.map((t) => escapeHtml(t.name)).join(' or ');
      return `<div class="chain-panel" data-chain-panel="${chain}" data-testid="chain-${chain}"${i === 0 ? '' : ' hidden'}>
<div class="qr" data-testid="qr-${chain}" role="img" aria-label="QR code of the ${name} address">${codes[i] ?? ''}</div>
<div class="fields">
<div class="field"><div class="field-label">Amount to send</div><div class="field-row"><span class="field-value" data-pay-amount data-testid="pay-amount-${chain}">${escapeHtml(payAmount)}</span>${left === null ? '' : `<button type="button" class="copy" data-copy-amount data-testid="copy-amount-${chain}">Copy</button>`}</div></div>
<div class="field field-address" style="--chars: ${c.address.length}"><div class="field-label">${name} address</div><div class="field-row"><code class="field-value mono" data-testid="address-${chain}">${escapeHtml(c.address)}</code><button type="button" class="copy" data-copy="${escapeHtml(c.address)}" data-testid="copy-address-${chain}">Copy</button></div></div>
<p class="hint">Send ${tokens} on <b>${name}</b> only. Transfers on another network are lost.</p>
</div></div>`;
    })
    .join('');
  const fiat = checkout.fiat
    ? `${panels ? '<div class="or"><span>or</span></div>' : ''}<a class="btn wide" data-testid="pay-card" href="${escapeHtml(checkout.fiat.session_url)}">Pay by card</a>`
    : '';
  const payment = open
    ? `<section class="pay" data-testid="payment-options" aria-label="Payment">
<h2 class="section-title">${panels ? 'Pay with crypto' : 'Pay'}</h2>${tabs}${panels}${fiat}</section>`
    : '';
  const tools = `<aside class="tools" data-testid="sandbox-tools" aria-label="Sandbox tools">
<div class="tools-head"><b>Sandbox tools</b><span class="small muted">For demos and tests: a real customer never sees this panel.</span></div>
<div class="small muted" data-testid="sandbox-clock"></div>
<div class="tools-row" data-testid="simulate-controls"${open ? '' : ' hidden'}>
${left === null ? '' : '<button type="button" class="btn" data-testid="simulate-full">Simulate full payment</button>'}
<div class="partial"><label class="sr-only" for="simulate-amount">Amount in ${escapeHtml(checkout.currency)}</label><input id="simulate-amount" data-testid="simulate-amount" inputmode="decimal" autocomplete="off" placeholder="Amount, e.g. 4.00"><span class="unit">${escapeHtml(checkout.currency)}</span>
<button type="button" class="btn secondary" data-testid="simulate-partial">${left === null ? 'Simulate payment' : 'Simulate partial payment'}</button></div>
</div>
<p class="small tools-message" data-testid="simulate-message" role="status"></p></aside>`;
  const client: HostedPageData = {
    ...state,
    merchant,
    method: checkout.method,
    chains: checkout.crypto_chains.map((c) => ({ chain: c.chain, name: chainName(c.chain) })),
    success_url: checkout.fiat?.success_url ?? null,
  };
  return pageDocument({
    title: `Pay ${merchant}: ${checkout.title}`,
    css: HOSTED_CSS,
    body: `<div class="page">${topbar(merchant, env)}
<main class="checkout" data-testid="checkout">
<section class="summary">
<p class="eyebrow">Payment to ${escapeHtml(merchant)}</p>
<h1 class="title" data-testid="title">${escapeHtml(checkout.title)}</h1>
${checkout.description ? `<p class="desc" data-testid="description">${escapeHtml(checkout.description)}</p>` : ''}
<div class="amount" data-testid="amount">${escapeHtml(checkout.amount === null ? `Any amount of ${checkout.currency}` : formatMinor(checkout.amount, checkout.currency))}</div>
<div class="meta">${statusPill(checkout.status, view.received_amount, open)}<span class="countdown" data-testid="countdown"></span></div>
<div class="progress" data-testid="progress" hidden><div class="bar"><div class="fill" data-testid="progress-fill"></div></div>
<div class="progress-row"><span data-testid="progress-text"></span><span class="muted" data-testid="progress-left"></span></div></div>
<dl class="details small">
<div data-testid="expiry"${expiry ? '' : ' hidden'}><dt data-testid="expiry-label">${expiry?.label ?? 'Expires'}</dt><dd data-testid="expires-at">${escapeHtml(utc(checkout.expires_at))}</dd></div>
${checkout.reference ? `<div><dt>Reference</dt><dd class="mono" data-testid="reference">${escapeHtml(checkout.reference)}</dd></div>` : ''}</dl>
</section>
${payment}
<section class="result" data-testid="result" hidden aria-live="polite"></section>
</main>
${tools}
<footer class="footer">svc-sandbox hosted checkout · test funds only: nothing real moves</footer></div>
<script type="application/json" id="checkout-state">${scriptJson(client)}</script>`,
    script: HOSTED_SCRIPT,
  });
}

function fiatPage(checkout: Checkout, merchant: string, env: Env): string {
  const payable = checkout.status === 'active';
  const fiat: FiatPageData = {
    id: checkout.id,
    success_url: checkout.fiat?.success_url ?? null,
    cancel_url: checkout.fiat?.cancel_url ?? null,
  };
  return pageDocument({
    title: `Pay ${merchant} by card`,
    css: HOSTED_CSS,
    body: `<div class="page narrow">${topbar(merchant, env)}
<main class="checkout single"><section class="pay">
<p class="eyebrow">Card payment · sandbox stand-in for the card provider</p>
<h1 class="title">${escapeHtml(checkout.title)}</h1>
<div class="amount">${escapeHtml(checkout.amount === null ? `Any amount of ${checkout.currency}` : formatMinor(checkout.amount, checkout.currency))}</div>
<div class="meta">${statusPill(checkout.status, 0, true)}</div>
<div class="card-fake" aria-hidden="true"><span>4242 4242 4242 4242</span><span>12/34 · 123</span></div>
<div class="actions"><button type="button" class="btn" data-testid="pay" ${payable ? '' : 'disabled'}>Pay</button>
<button type="button" class="btn secondary" data-testid="cancel">Cancel</button></div>
<p class="small" data-testid="message" role="status"></p></section></main>
<footer class="footer">svc-sandbox card provider · no card is charged</footer></div>
<script type="application/json" id="fiat-state">${scriptJson(fiat)}</script>`,
    script: FIAT_SCRIPT,
  });
}

export const hostedPageRoutes: FastifyPluginAsyncTypebox<{
  use: Use<HostedPageRoutesDeps>;
  env: Env;
}> = async (app, { use, env }) => {
  /** A checkout as the customer-facing address of its environment sees it: another env's is unknown. */
  const load = (request: FastifyRequest, id: string): CheckoutInspection => {
    const view = use(request).checkouts.inspect(id);
    if (view.env !== env) throw new NotFoundError('Checkout', id);
    return view;
  };
  const stateOf = (
    request: FastifyRequest,
    { checkout, received_amount }: CheckoutInspection,
  ): HostedCheckoutState => ({
    id: checkout.id,
    status: checkout.status,
    amount: checkout.amount,
    currency: checkout.currency,
    received_amount,
    paid_amount: checkout.paid_amount,
    refunded_amount: checkout.refunded_amount,
    expires_at: checkout.expires_at,
    paid_at: checkout.paid_at,
    now: use(request).clock.nowIso(),
    frozen: use(request).clock.frozen,
  });
  const html = (request: FastifyRequest, reply: FastifyReply, body: string, script: string) =>
    reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header(
        'Content-Security-Policy',
        pagePolicy(script, use(request).settings.get().hosted_pages_frame_ancestors),
      )
      .send(body);

  app.get('/pay/:id', { schema: { hide: true, params: IdParams } }, async (request, reply) => {
    const view = load(request, request.params.id);
    const merchant = use(request).merchants.get(view.checkout.merchant_id).name;
    return html(
      request,
      reply,
      await checkoutPage(view, merchant, stateOf(request, view), env),
      HOSTED_SCRIPT,
    );
  });
  app.get('/pay/:id/fiat', { schema: { hide: true, params: IdParams } }, async (request, reply) => {
    const { checkout } = load(request, request.params.id);
    return html(
      request,
      reply,
      fiatPage(checkout, use(request).merchants.get(checkout.merchant_id).name, env),
      FIAT_SCRIPT,
    );
  });
  app.get(
    '/pay/:id/status',
    { schema: { hide: true, params: IdParams, response: { 200: HostedCheckoutState } } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return stateOf(request, load(request, request.params.id));
    },
  );
};
