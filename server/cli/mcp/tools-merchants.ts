import { type Static, Type } from 'typebox';
import type { OperationId } from '../../contract/call.js';
import {
  CheckoutBase,
  type CheckoutInspection,
  CheckoutPayment,
  CreateCheckoutBody,
  type PaymentResult,
  SimulatePaymentBody,
} from '../../contract/checkouts.js';
import { PositiveAmount } from '../../contract/common.js';
import {
  ApiKey,
  CreateApiKeyBody,
  type CreatedMerchant,
  CreateMerchantBody,
  Merchant,
  PatchMerchantBody,
} from '../../contract/merchants.js';
import { RefundBody, RefundRecord, RefundResult } from '../../contract/refunds.js';
import { CheckoutListQuery } from '../../contract/views.js';
import type { SandboxClient } from '../client.js';
import {
  bodyOf,
  count,
  described,
  ID_ARGS,
  idArg,
  list,
  merge,
  money,
  operationTool,
  structured,
  type Tool,
  ToolRefusal,
} from './tool.js';

// Merchants and their keys, checkouts and what the chain does to them, deposits and payouts.

const MerchantBrief = Type.Pick(Merchant, ['id', 'name', 'kyb_status']);
const KeyBrief = Type.Pick(ApiKey, ['id', 'name', 'role', 'key', 'revoked_at']);

/** A checkout as the tools answer it: what an agent acts on, the contract's fields. */
export const CheckoutBrief = Type.Pick(CheckoutBase, [
  'id',
  'merchant_id',
  'status',
  'amount',
  'currency',
  'paid_amount',
  'refunded_amount',
  'expires_at',
  'hosted_url',
]);
type CheckoutBrief = Static<typeof CheckoutBrief>;
export const PaymentBrief = Type.Pick(CheckoutPayment, ['id', 'amount', 'chain', 'token', 'outcome', 'txid']);

export const checkoutWords = (c: CheckoutBrief): string =>
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

/** The merchant's first live key, owner before admin before developer: the key its app would use. */
async function merchantKey(client: SandboxClient, merchantId: string): Promise<string> {
  const keys = await client.call('sandboxListMerchantApiKeys', { params: { id: merchantId } });
  const rank = (k: ApiKey) => ['owner', 'admin', 'developer'].indexOf(k.role);
  const live = keys.filter((k) => k.revoked_at === null && rank(k) >= 0).sort((a, b) => rank(a) - rank(b));
  if (!live[0])
    throw new ToolRefusal(
      `merchant ${merchantId} has no live API key: call merchant_key_create {merchant_id: "${merchantId}", name: "app"} first`,
    );
  return live[0].key;
}

// The app's own request, except: merchant_id is the merchant acting (the body's reseller field is
// not offered), and expires_at may be left out (an hour from sandbox time).
const CheckoutInput = merge(
  Type.Object({
    merchant_id: idArg(
      'merchant_id',
      `the merchant whose app creates the checkout with its own API key; ${ID_ARGS.merchant_id.description}`,
    ),
  }),
  Type.Omit(CreateCheckoutBody, ['merchant_id', 'expires_at']),
  Type.Object({
    expires_at: Type.Optional(
      described(
        CreateCheckoutBody.properties.expires_at,
        'when the checkout stops accepting payments (ISO 8601, sandbox time); default: an hour from now on the sandbox clock (clock_now)',
      ),
    ),
  }),
);

const createCheckout: Tool = {
  name: 'checkout_create',
  title: 'Create a checkout',
  description:
    "Create a checkout as the merchant's app does: POST /v1/checkouts with the merchant's own API key (test environment). `amount` is an integer in the currency's minor units (USDC: 6 decimals, so 25 USDC = 25000000); leave it out for an open amount. Answers the checkout with its hosted_url.",
  operations: ['sandboxListMerchantApiKeys', 'sandboxGetClock', 'createCheckout'],
  input: CheckoutInput,
  output: CheckoutBrief,
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  async run(args, client) {
    const merchantId = args.merchant_id;
    if (typeof merchantId !== 'string' || merchantId === '')
      throw new ToolRefusal('merchant_id: is required (merchants_list or merchant_create gives one)');
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
    return { words: `Created. ${checkoutWords(checkout)}`, data: structured(CheckoutBrief, checkout) };
  },
};

/** What a transfer did: the checkout's state after it. */
const CheckoutAfter = Type.Pick(CheckoutBase, [
  'id',
  'status',
  'amount',
  'currency',
  'paid_amount',
  'expires_at',
]);
const PaymentAnswer = Type.Object({ payment: PaymentBrief, checkout: CheckoutAfter });
const Pay = Type.Omit(SimulatePaymentBody, ['late', 'unsupported_chain']);
const payment = (
  name: string,
  title: string,
  description: string,
  body: Parameters<typeof merge>[0],
  fixed: Record<string, unknown> = {},
): Tool =>
  operationTool<PaymentResult>({
    name,
    title,
    description,
    operationId: 'sandboxPayCheckout',
    pathArg: 'checkout_id',
    body: merge(body),
    fixed,
    output: PaymentAnswer,
    words: paymentWords,
  });

const checkoutMove = (name: string, title: string, operationId: OperationId, description: string): Tool =>
  operationTool<CheckoutBrief>({
    name,
    title,
    description,
    operationId,
    pathArg: 'checkout_id',
    destructive: true,
    idempotent: true,
    output: CheckoutBrief,
    words: checkoutWords,
  });

/** A checkout's transfers and refunds as checkout_get answers them. */
export const CheckoutStory = Type.Object({
  checkout: CheckoutBrief,
  received_amount: Type.Integer({ description: 'what the received transfers add up to (minor units)' }),
  payments: Type.Array(Type.Pick(CheckoutPayment, ['id', 'amount', 'chain', 'outcome', 'created_at']), {
    description: 'every transfer to the checkout, received, late or on a chain it does not offer',
  }),
  refunds: Type.Array(Type.Pick(RefundRecord, ['id', 'amount', 'status_after'])),
});

export const merchantTools: Tool[] = [
  operationTool<CreatedMerchant>({
    name: 'merchant_create',
    title: 'Create a merchant',
    description:
      'Create a merchant and its owner API key (svcb_...), the key its app uses on /v1. Answers both ids and the key.',
    operationId: 'sandboxCreateMerchant',
    body: CreateMerchantBody,
    output: Type.Object({ merchant: MerchantBrief, api_key: KeyBrief }),
    words: (r) => `Created merchant ${r.merchant.name} (${r.merchant.id}) with owner key ${r.api_key.key}.`,
  }),
  operationTool<Merchant[]>({
    name: 'merchants_list',
    title: 'List merchants',
    description: 'List the merchants of the workspace: id, name, KYB status (newest first).',
    operationId: 'sandboxListMerchants',
    output: list(MerchantBrief),
    words: (items) =>
      `${count(items.length, 'merchant')}${items.length ? `: ${items.map((m) => `${m.name} (${m.id})`).join(', ')}` : ''}.`,
  }),
  operationTool<Merchant>({
    name: 'merchant_update',
    title: 'Change a merchant',
    description:
      'Change a merchant: name, kyb_status, or platform_rate (basis points; null: the sandbox setting).',
    operationId: 'sandboxUpdateMerchant',
    pathArg: 'merchant_id',
    body: PatchMerchantBody,
    output: Merchant,
    words: (m) =>
      `Merchant ${m.name} (${m.id}) is now kyb_status ${m.kyb_status}, platform_rate ${m.platform_rate ?? 'from settings'}.`,
  }),
  operationTool<Merchant>({
    name: 'merchant_get',
    title: 'Get a merchant',
    description: 'One merchant by id: name, legal name, KYB status, platform_rate override.',
    operationId: 'sandboxGetMerchant',
    pathArg: 'merchant_id',
    output: Merchant,
    words: (m) => `Merchant ${m.name} (${m.id}), kyb_status ${m.kyb_status}.`,
  }),
  operationTool<ApiKey>({
    name: 'merchant_key_create',
    title: 'Create an API key',
    description:
      'Make another API key for the merchant (`role` owner, admin or developer), e.g. to test what a lower role may not do.',
    operationId: 'sandboxCreateMerchantApiKey',
    pathArg: 'merchant_id',
    body: CreateApiKeyBody,
    output: KeyBrief,
    words: (k) => `Key ${k.id} (${k.role}): ${k.key}.`,
  }),
  operationTool<undefined>({
    name: 'api_key_revoke',
    title: 'Revoke an API key',
    description: 'Revoke an API key at once: /v1 answers 401 to it from now on.',
    operationId: 'sandboxDeleteApiKey',
    pathArg: 'api_key_id',
    output: Type.Object({ revoked: idArg('api_key_id', 'the API key revoked') }),
    words: (_, args) => `Revoked key ${String(args.api_key_id)}.`,
    shape: (_, args) => ({ revoked: args.api_key_id }),
  }),
  operationTool<ApiKey[]>({
    name: 'merchant_keys',
    title: "List a merchant's API keys",
    description:
      "A merchant's API keys, full key included (sandbox keys stay viewable): what its app sends as `Authorization: Bearer <key>` on /v1.",
    operationId: 'sandboxListMerchantApiKeys',
    pathArg: 'merchant_id',
    output: list(KeyBrief),
    words: (keys) =>
      `${count(keys.length, 'key')}: ${keys.map((k) => `${k.role} ${k.key}${k.revoked_at ? ' (revoked)' : ''}`).join(', ')}.`,
  }),
  createCheckout,
  operationTool<CheckoutInspection>({
    name: 'checkout_get',
    title: 'Get a checkout',
    description:
      'A checkout with what the outside world did to it: its status and amounts, the transfers received (and late or wrong-chain ones) and its refunds.',
    operationId: 'sandboxGetCheckout',
    pathArg: 'checkout_id',
    output: CheckoutStory,
    words: (r) =>
      `${checkoutWords(r.checkout)} Received ${r.received_amount} over ${count(r.payments.length, 'transfer')}; ${count(r.refunds.length, 'refund')}.`,
  }),
  operationTool<CheckoutBrief[]>({
    name: 'checkouts_list',
    title: "List a merchant's checkouts",
    description:
      "A merchant's checkouts, newest first; filter by status or q (id, part of title or reference).",
    operationId: 'sandboxListMerchantCheckouts',
    pathArg: 'merchant_id',
    query: CheckoutListQuery,
    describe: { status: 'only checkouts in this status' },
    output: list(CheckoutBrief),
    words: (items) =>
      `${count(items.length, 'checkout')}${items.length ? `: ${items.map((c) => `${c.id} ${c.status}`).join(', ')}` : ''}.`,
  }),
  payment(
    'checkout_pay',
    'Pay a checkout',
    "The chain detects a transfer to the checkout: without `amount` it pays what is due in full (the checkout becomes paid, then settles ~60 s of sandbox time later); a larger amount overpays. `chain`/`token` pick among the checkout's (default its first).",
    Pay,
  ),
  payment(
    'checkout_pay_partial',
    'Pay part of a checkout',
    'A transfer of less than the checkout amount (`amount` in minor units, required): the checkout keeps waiting; at expiry it becomes `partial` and checkout.partial fires.',
    merge(
      Type.Omit(Pay, ['amount']),
      Type.Object({
        amount: described(
          PositiveAmount,
          'the amount transferred, less than the checkout amount (minor units)',
        ),
      }),
    ),
  ),
  payment(
    'checkout_pay_late',
    'Pay a checkout too late',
    'A transfer that arrives after the checkout stopped accepting payments (an active one reaches its expiry first): recorded with outcome `late`, not credited, no event.',
    Pay,
    { late: true },
  ),
  payment(
    'checkout_pay_wrong_chain',
    'Pay a checkout on the wrong chain',
    'A transfer on `chain` (required), a known chain the checkout does not offer: recorded with outcome `unsupported_chain`, never detected or credited, no event.',
    merge(
      Type.Omit(Pay, ['chain']),
      Type.Object({
        chain: Type.String({
          minLength: 1,
          maxLength: 32,
          description: 'a known chain the checkout does not offer (e.g. tron when it offers ethereum)',
        }),
      }),
    ),
    { unsupported_chain: true },
  ),
  checkoutMove(
    'checkout_expire',
    'Expire a checkout',
    'sandboxExpireCheckout',
    'Expire the checkout now (partial if something was received, else expired); its event fires.',
  ),
  checkoutMove(
    'checkout_cancel',
    'Cancel a checkout',
    'sandboxCancelCheckout',
    'Cancel the checkout now, as the merchant would; refused in a status that cannot be cancelled.',
  ),
  checkoutMove(
    'checkout_complete',
    'Settle a paid checkout',
    'sandboxCompleteCheckout',
    'Settle a paid checkout now instead of waiting ~60 s of sandbox time.',
  ),
  operationTool<Static<typeof RefundResult>>({
    name: 'checkout_refund',
    title: 'Refund a checkout',
    description:
      'Refund a paid checkout as the merchant (all, or `amount` in minor units); gas is deducted unless gas_fee_payer is "merchant".',
    operationId: 'sandboxRefundCheckout',
    pathArg: 'checkout_id',
    body: RefundBody,
    output: RefundResult,
    words: (r) =>
      `Refunded; checkout ${r.id} ${r.refund_status}, refunded ${r.refunded_amount}, ${r.remaining_amount} remaining (minor units).`,
  }),
];
