import type { Tool } from './tool.js';
import { TOOLS } from './tools.js';

/**
 * The tools in groups an agent enables as it needs them. `core` is what the common task takes
 * (make a workspace and a merchant, a checkout, pay it or part of it, move the clock, read the
 * webhook, ask why) and is what `svc-sandbox mcp` lists unless told otherwise; the others add a
 * domain each. Every tool is in exactly one toolset (test/unit/mcp-schemas.test.ts).
 */
export const TOOLSETS = {
  core: {
    short: 'workspaces, merchants, checkouts, payments, clock, inbox, explain',
    description:
      'the common task: workspaces, merchants, checkouts, paying them in full or in part, expiry, the clock, the built-in webhook inbox, explain',
    tools: [
      'workspaces_list',
      'workspace_create',
      'workspace_delete',
      'merchant_create',
      'merchants_list',
      'checkout_create',
      'checkout_get',
      'checkouts_list',
      'checkout_pay',
      'checkout_pay_partial',
      'checkout_expire',
      'clock_now',
      'clock_advance',
      'inbox_endpoint_create',
      'inbox_read',
      'explain',
    ],
  },
  checkouts: {
    short: 'late and wrong-chain transfers, cancel, settle now, refund',
    description:
      "the rest of a checkout's life: transfers that arrive late or on a chain it does not offer, cancel, settle now, refund",
    tools: [
      'checkout_pay_late',
      'checkout_pay_wrong_chain',
      'checkout_cancel',
      'checkout_complete',
      'checkout_refund',
    ],
  },
  merchants: {
    short: 'merchant details and keys, balances, deposits, payouts',
    description:
      'merchant details, changes and API keys, balances, credits, deposits (static addresses too) and payouts',
    tools: [
      'merchant_get',
      'merchant_update',
      'merchant_keys',
      'merchant_key_create',
      'api_key_revoke',
      'balances',
      'merchant_credit',
      'deposit_create',
      'static_address_deposit',
      'deposits_list',
      'payout_create',
      'payouts_list',
    ],
  },
  cards: {
    short: 'card issuing and the card network',
    description:
      "card issuing: cardholders, KYC and applications, cards, funding, and the card network's authorizations, settlements, declines, reversals and refunds",
    tools: [
      'card_catalogue',
      'cardholder_create',
      'cardholders_list',
      'cardholder_get',
      'kyc_review',
      'card_application_create',
      'card_application_review',
      'card_issue',
      'cardholder_fund',
      'cardholder_recall',
      'card_update',
      'card_activate',
      'card_cancel',
      'card_authorize',
      'card_settle',
      'card_decline',
      'card_reverse',
      'card_refund',
      'card_deposit',
      'card_withdrawal',
      'card_transaction_get',
      'card_transactions_list',
    ],
  },
  resellers: {
    short: 'connections, provisioning, income',
    description:
      "resellers: connections that earn a merchant a commission on another's payments (create, change, revoke, delete), provisioning merchants, reseller income",
    tools: [
      'reseller_connection_create',
      'reseller_connections_list',
      'reseller_connection_update',
      'reseller_connection_revoke',
      'reseller_connection_delete',
      'merchant_provision',
      'reseller_income',
    ],
  },
  webhooks: {
    short: 'endpoints, chaos, deliveries, events',
    description:
      'webhook endpoints and their delivery chaos, test sends, deliveries (retry, resend), the inboxes, the event log',
    tools: [
      'webhook_endpoint_create',
      'webhook_endpoints_list',
      'webhook_endpoint_update',
      'webhook_chaos',
      'webhook_endpoint_delete',
      'webhook_endpoint_test',
      'deliveries_list',
      'delivery_get',
      'delivery_retry',
      'delivery_resend',
      'inboxes_list',
      'inbox_configure',
      'inbox_clear',
      'events_list',
    ],
  },
  testing: {
    short: 'request log and verification, API faults, receiver check, coverage, scenarios',
    description:
      "faults and verification: the request log and request verification, API faults, grading the app's webhook receiver, coverage, the built-in scenarios",
    tools: [
      'request_log_list',
      'request_log_get',
      'requests_verify',
      'faults_get',
      'faults_set',
      'faults_clear',
      'receiver_check',
      'coverage_get',
      'scenarios_list',
      'scenario_trigger',
    ],
  },
  checkpoints: {
    short: 'checkpoints, reset, settings, clock freeze',
    description:
      'checkpoints (save, restore, list, delete), erasing the workspace, its settings, freezing and resuming the clock',
    tools: [
      'checkpoint_save',
      'checkpoint_restore',
      'checkpoints_list',
      'checkpoint_delete',
      'workspace_reset',
      'settings_get',
      'settings_update',
      'clock_freeze',
      'clock_resume',
    ],
  },
} as const satisfies Record<string, { short: string; description: string; tools: readonly string[] }>;

export type ToolsetName = keyof typeof TOOLSETS;
export const TOOLSET_NAMES = Object.keys(TOOLSETS) as ToolsetName[];
export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ['core'];

const BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));

/** The toolset a tool is in. */
export function toolsetOf(name: string): ToolsetName | undefined {
  return TOOLSET_NAMES.find((set) => (TOOLSETS[set].tools as readonly string[]).includes(name));
}

/** `core,cards`, `all`: the toolsets named; throws naming an unknown one and the known ones. */
export function parseToolsets(value: string): ToolsetName[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.includes('all')) return [...TOOLSET_NAMES];
  const unknown = names.filter((n) => !(n in TOOLSETS));
  if (unknown.length > 0 || names.length === 0)
    throw new Error(
      `${unknown.length ? `no toolset ${unknown.join(', ')}` : 'no toolset named'}: the toolsets are ${TOOLSET_NAMES.join(', ')} (or all)`,
    );
  return [...new Set(names)] as ToolsetName[];
}

/** The tools of these toolsets, in the order TOOLS has them; only those that change nothing when read-only. */
export function toolsIn(sets: readonly ToolsetName[], readOnly: boolean): Tool[] {
  const names = new Set(sets.flatMap((set) => TOOLSETS[set].tools as readonly string[]));
  return TOOLS.filter((tool) => names.has(tool.name) && (!readOnly || tool.readOnly));
}

/** A tool by name, whichever toolset it is in. */
export const toolNamed = (name: string): Tool | undefined => BY_NAME.get(name);
