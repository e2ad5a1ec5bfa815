import { Type } from 'typebox';
import type { OperationId } from '../../contract/call.js';
import {
  type Checkout,
  type CheckoutBase,
  type CheckoutInspection,
  CreateCheckoutBody,
  type PaymentResult,
  SimulatePaymentBody,
} from '../../contract/checkouts.js';
import { EnvQuery, IdParams, PositiveAmount } from '../../contract/common.js';
import {
  AddressDepositBody,
  AddressParams,
  type Balance,
  CreditBody,
  type Deposit,
  DepositBody,
  MerchantListQuery,
  type Payout,
  PayoutBody,
} from '../../contract/funds.js';
import {
  type ApiKey,
  CreateApiKeyBody,
  type CreatedMerchant,
  CreateMerchantBody,
  type Merchant,
  PatchMerchantBody,
} from '../../contract/merchants.js';
import { RefundBody, type RefundResult } from '../../contract/refunds.js';
import { CheckoutListQuery } from '../../contract/views.js';
import type { SandboxClient } from '../client.js';
import { bodyOf, count, merge, money, operationTool, type Tool, ToolRefusal } from './tool.js';

// Merchants and their keys, checkouts and what the chain does to them, deposits and payouts.

const merchantShape = (m: Merchant) => ({ id: m.id, name: m.name, kyb_status: m.kyb_status });
const keyShape = (k: ApiKey) => ({
  id: k.id,
  name: k.name,
  role: k.role,
  key: k.key,
  revoked: k.revoked_at !== null,
});

export const checkoutShape = (c: CheckoutBase) => ({
  id: c.id,
  merchant_id: c.merchant_id,
  status: c.status,
  amount: c.amount,
  currency: c.currency,
  paid_amount: c.paid_amount,
  refunded_amount: c.refunded_amount,
  expires_at: c.expires_at,
  hosted_url: c.hosted_url,
});

export const checkoutWords = (c: CheckoutBase): string =>
  `Checkout ${c.id} is ${c.status}: ${money(c.amount, c.currency)}${c.paid_amount ? `, paid ${c.paid_amount}` : ''}; expires ${c.expires_at}.`;

const paymentWords = (r: PaymentResult): string => {
  const p = r.payment;
  const what =
    p.outcome === 'received'
      ? 'received and credited'
      : p.outcome === 'late'
        ? 'recorded as late (not credited, no event)'
        : `recorded on ${p.chain ?? 'a chain'} the checkout does not offer (not credited, no event)`;
  return `Transfer of ${p.amount} (minor units) ${what}. ${checkoutWords(r.checkout)}`;
};

const paymentShape = (r: PaymentResult) => ({
  payment: {
    id: r.payment.id,
    amount: r.payment.amount,
    chain: r.payment.chain,
    token: r.payment.token,
    outcome: r.payment.outcome,
    txid: r.payment.txid,
  },
  checkout: checkoutShape(r.checkout),
});

/** The merchant's first live key, owner before admin before developer: the key its app would use. */
async function merchantKey(client: SandboxClient, merchantId: string): Promise<string> {
  const keys = await client.call('sandboxListMerchantApiKeys', { params: { id: merchantId } });
  const rank = (k: ApiKey) => ['owner', 'admin', 'developer'].indexOf(k.role);
  const live = keys.filter((k) => k.revoked_at === null && rank(k) >= 0).sort((a, b) => rank(a) - rank(b));
  if (!live[0])
    throw new ToolRefusal(`merchant ${merchantId} has no live API key (merchant_key_create makes one)`);
  return live[0].key;
}

const ActingMerchant = Type.Object({ merchant_id: IdParams.properties.id });
// The app's own request, except: merchant_id is the merchant acting (the body's reseller field is
// not offered), and expires_at may be left out (an hour from sandbox time).
const CheckoutInput = merge(
  ActingMerchant,
  Type.Omit(CreateCheckoutBody, ['merchant_id', 'expires_at']),
  Type.Object({ expires_at: Type.Optional(CreateCheckoutBody.properties.expires_at) }),
);

const createCheckout: Tool = {
  name: 'checkout_create',
  description:
    "Create a checkout as the merchant's app does: POST /v1/checkouts with the merchant's own API key (test environment). `amount` is an integer in the currency's minor units (USDC: 6 decimals, so 25 USDC = 25000000); leave it out for an open amount. `expires_at` defaults to an hour from sandbox time. Answers the checkout with its hosted_url.",
  operations: ['sandboxListMerchantApiKeys', 'sandboxGetClock', 'createCheckout'],
  input: CheckoutInput,
  async run(args, client) {
    const merchantId = args.merchant_id;
    if (typeof merchantId !== 'string' || merchantId === '')
      throw new ToolRefusal('merchant_id: is required');
    const key = await merchantKey(client, merchantId);
    const body = bodyOf(CreateCheckoutBody, args) ?? {};
    delete body.merchant_id;
    if (body.expires_at === undefined) {
      const clock = await client.call('sandboxGetClock');
      body.expires_at = new Date(Date.parse(clock.now) + 3600_000).toISOString();
    }
    const checkout = await client.callWith({ authorization: `Bearer ${key}` }, 'createCheckout', {
      body: body as CreateCheckoutBody,
    });
    return { words: `Created. ${checkoutWords(checkout)}`, data: checkoutShape(checkout) };
  },
};

const Pay = Type.Omit(SimulatePaymentBody, ['late', 'unsupported_chain']);
const payment = (
  name: string,
  description: string,
  body: Parameters<typeof merge>[0],
  fixed: Record<string, unknown> = {},
): Tool =>
  operationTool<PaymentResult>({
    name,
    description,
    operationId: 'sandboxPayCheckout',
    params: IdParams,
    body: merge(body),
    fixed,
    words: paymentWords,
    shape: paymentShape,
  });

const checkoutMove = (name: string, operationId: OperationId, description: string): Tool =>
  operationTool<Checkout>({
    name,
    description,
    operationId,
    params: IdParams,
    words: checkoutWords,
    shape: checkoutShape,
  });

export const merchantTools: Tool[] = [
  operationTool<CreatedMerchant>({
    name: 'merchant_create',
    description:
      'Create a merchant and its owner API key (svcb_...), the key its app uses on /v1. Answers both ids and the key.',
    operationId: 'sandboxCreateMerchant',
    body: CreateMerchantBody,
    words: (r) => `Created merchant ${r.merchant.name} (${r.merchant.id}) with owner key ${r.api_key.key}.`,
    shape: (r) => ({ merchant: merchantShape(r.merchant), api_key: keyShape(r.api_key) }),
  }),
  operationTool<Merchant[]>({
    name: 'merchants_list',
    description: 'List the merchants of the workspace: id, name, KYB status (newest first).',
    operationId: 'sandboxListMerchants',
    words: (list) =>
      `${count(list.length, 'merchant')}${list.length ? `: ${list.map((m) => `${m.name} (${m.id})`).join(', ')}` : ''}.`,
    shape: (list) => list.map(merchantShape),
  }),
  operationTool<Merchant>({
    name: 'merchant_update',
    description:
      'Change a merchant: name, kyb_status, or platform_rate (basis points; null: the sandbox setting).',
    operationId: 'sandboxUpdateMerchant',
    params: IdParams,
    body: PatchMerchantBody,
    words: (m) =>
      `Merchant ${m.name} (${m.id}) is now kyb_status ${m.kyb_status}, platform_rate ${m.platform_rate ?? 'from settings'}.`,
  }),
  operationTool<Merchant>({
    name: 'merchant_get',
    description: 'One merchant by id: name, legal name, KYB status, platform_rate override.',
    operationId: 'sandboxGetMerchant',
    params: IdParams,
    words: (m) => `Merchant ${m.name} (${m.id}), kyb_status ${m.kyb_status}.`,
  }),
  operationTool<ApiKey>({
    name: 'merchant_key_create',
    description:
      'Make another API key for the merchant (`role` owner, admin or developer), e.g. to test what a lower role may not do.',
    operationId: 'sandboxCreateMerchantApiKey',
    params: IdParams,
    body: CreateApiKeyBody,
    words: (k) => `Key ${k.id} (${k.role}): ${k.key}.`,
    shape: keyShape,
  }),
  operationTool<undefined>({
    name: 'api_key_revoke',
    description: "Revoke an API key at once (`id`: the key object's id): /v1 answers 401 to it from now on.",
    operationId: 'sandboxDeleteApiKey',
    params: IdParams,
    words: (_, args) => `Revoked key ${String(args.id)}.`,
    shape: (_, args) => ({ revoked: args.id }),
  }),
  operationTool<ApiKey[]>({
    name: 'merchant_keys',
    description:
      "A merchant's API keys, full key included (sandbox keys stay viewable): what its app sends as `Authorization: Bearer <key>` on /v1.",
    operationId: 'sandboxListMerchantApiKeys',
    params: IdParams,
    words: (keys) =>
      `${count(keys.length, 'key')}: ${keys.map((k) => `${k.role} ${k.key}${k.revoked_at ? ' (revoked)' : ''}`).join(', ')}.`,
    shape: (keys) => keys.map(keyShape),
  }),
  createCheckout,
  operationTool<CheckoutInspection>({
    name: 'checkout_get',
    description:
      'A checkout with what the outside world did to it: its status and amounts, the transfers received (and late or wrong-chain ones) and its refunds.',
    operationId: 'sandboxGetCheckout',
    params: IdParams,
    words: (r) =>
      `${checkoutWords(r.checkout)} Received ${r.received_amount} over ${count(r.payments.length, 'transfer')}; ${count(r.refunds.length, 'refund')}.`,
    shape: (r) => ({
      checkout: checkoutShape(r.checkout),
      received_amount: r.received_amount,
      payments: r.payments.map((p) => ({ id: p.id, amount: p.amount, chain: p.chain, outcome: p.outcome })),
      refunds: r.refunds.map((f) => ({ id: f.id, amount: f.amount })),
    }),
  }),
  operationTool<CheckoutBase[]>({
    name: 'checkouts_list',
    description:
      "A merchant's checkouts, newest first; filter by status or q (id, part of title or reference).",
    operationId: 'sandboxListMerchantCheckouts',
    params: IdParams,
    query: CheckoutListQuery,
    words: (list) =>
      `${count(list.length, 'checkout')}${list.length ? `: ${list.map((c) => `${c.id} ${c.status}`).join(', ')}` : ''}.`,
    shape: (list) => list.map(checkoutShape),
  }),
  payment(
    'checkout_pay',
    "The chain detects a transfer to the checkout: without `amount` it pays what is due in full (the checkout becomes paid, then settles ~60 s of sandbox time later); a larger amount overpays. `chain`/`token` pick among the checkout's (default its first).",
    Pay,
  ),
  payment(
    'checkout_pay_partial',
    'A transfer of less than the checkout amount (`amount` in minor units, required): the checkout keeps waiting; at expiry it becomes `partial` and checkout.partial fires.',
    merge(Type.Omit(Pay, ['amount']), Type.Object({ amount: PositiveAmount })),
  ),
  payment(
    'checkout_pay_late',
    'A transfer that arrives after the checkout stopped accepting payments (an active one reaches its expiry first): recorded with outcome `late`, not credited, no event.',
    Pay,
    { late: true },
  ),
  payment(
    'checkout_pay_wrong_chain',
    'A transfer on `chain` (required), a known chain the checkout does not offer: recorded with outcome `unsupported_chain`, never detected or credited, no event.',
    merge(Type.Omit(Pay, ['chain']), Type.Object({ chain: Type.String({ minLength: 1, maxLength: 32 }) })),
    { unsupported_chain: true },
  ),
  checkoutMove(
    'checkout_expire',
    'sandboxExpireCheckout',
    'Expire the checkout now (partial if something was received, else expired); its event fires.',
  ),
  checkoutMove(
    'checkout_cancel',
    'sandboxCancelCheckout',
    'Cancel the checkout now, as the merchant would; refused in a status that cannot be cancelled.',
  ),
  checkoutMove(
    'checkout_complete',
    'sandboxCompleteCheckout',
    'Settle a paid checkout now instead of waiting ~60 s of sandbox time.',
  ),
  operationTool<RefundResult>({
    name: 'checkout_refund',
    description:
      'Refund a paid checkout as the merchant (all, or `amount` in minor units); gas is deducted unless gas_fee_payer is "merchant".',
    operationId: 'sandboxRefundCheckout',
    params: IdParams,
    body: RefundBody,
    words: (r) =>
      `Refunded; checkout ${r.id} ${r.refund_status}, refunded ${r.refunded_amount}, ${r.remaining_amount} remaining (minor units).`,
  }),
  operationTool<Deposit>({
    name: 'deposit_create',
    description:
      "An on-chain deposit to the merchant's balance (chain, currency, amount in minor units); deposit.received fires.",
    operationId: 'sandboxCreateDeposit',
    query: EnvQuery,
    body: DepositBody,
    words: (d) =>
      `Deposit ${d.id}: ${money(d.amount, d.currency)} on ${d.chain}, credited to ${d.merchant_id}.`,
  }),
  operationTool<Deposit>({
    name: 'static_address_deposit',
    description:
      "A transfer to a static deposit address the merchant's app made on /v1 (`address`; currency, amount in minor units): credited to its merchant, deposit.received fires.",
    operationId: 'sandboxCreateStaticAddressDeposit',
    params: AddressParams,
    body: AddressDepositBody,
    words: (d) => `Deposit ${d.id}: ${money(d.amount, d.currency)} to ${d.address} on ${d.chain}.`,
  }),
  operationTool<Balance[]>({
    name: 'merchant_credit',
    description:
      "Credit the merchant's available balance directly (amount in minor units), e.g. before a payout or funding a cardholder.",
    operationId: 'sandboxCreditMerchant',
    params: IdParams,
    query: EnvQuery,
    body: CreditBody,
    words: (list) => list.map((b) => `${b.currency}: ${b.available} available, ${b.held} held`).join('; '),
  }),
  operationTool<Payout>({
    name: 'payout_create',
    description:
      "A payout from the merchant's balance on the payout rail; `outcome: failed` rehearses a failure (the funds come back). payout.* fires.",
    operationId: 'sandboxCreatePayout',
    query: EnvQuery,
    body: PayoutBody,
    words: (p) =>
      `Payout ${p.id}: ${money(p.amount, p.currency)}, ${p.status}${p.failure_reason ? ` (${p.failure_reason})` : ''}.`,
  }),
  operationTool<Deposit[]>({
    name: 'deposits_list',
    description:
      "A merchant's on-chain deposits (chain, address, amount in minor units, txid), newest first.",
    operationId: 'sandboxListMerchantDeposits',
    params: IdParams,
    query: MerchantListQuery,
    words: (list) => `${count(list.length, 'deposit')}.`,
  }),
  operationTool<Payout[]>({
    name: 'payouts_list',
    description: "A merchant's payouts (amount in minor units, completed or failed, reason), newest first.",
    operationId: 'sandboxListMerchantPayouts',
    params: IdParams,
    query: MerchantListQuery,
    words: (list) => `${count(list.length, 'payout')}: ${list.map((p) => `${p.id} ${p.status}`).join(', ')}.`,
  }),
  operationTool<Balance[]>({
    name: 'balances',
    description:
      "A merchant's balances per currency: available and held (fees held 7 days), integers in minor units.",
    operationId: 'sandboxListMerchantBalances',
    params: IdParams,
    query: EnvQuery,
    words: (list) =>
      list.length
        ? list.map((b) => `${b.currency}: ${b.available} available, ${b.held} held`).join('; ')
        : 'No balance yet.',
  }),
];
