import * as api from '../api/sandbox';
import type {
  CheckoutItem,
  CreateConnectionBody,
  ProvisionBody,
  ProvisionResult,
  ResellerConnection,
  ResellerIncome,
  UpdateConnectionBody,
} from '../api/types';
import { formatAmount } from '../lib/format';
import { sandboxNow } from './clock';
import { currentScope, serialized, stillCurrent } from './merchant-scope';
import { attempt, scopedChange } from './notices';
import type { Slice, Store } from './types';

export interface OnBehalfCheckout {
  /** The connected merchant the checkout belongs to. */
  merchantId: string;
  title: string;
  /** 6dp minor units. */
  amount: number;
  /** Expiry, in hours from sandbox now. */
  hours: number;
}

/** Something made in one scope (`merchant/env`): shown only while that scope is on screen. */
interface Scoped<T> {
  scope: string;
  value: T;
}

export interface ResellersSlice {
  /** This merchant as reseller: its connections to others, every status, newest first. */
  outgoing: ResellerConnection[];
  /** Others reselling this merchant. */
  incoming: ResellerConnection[];
  /** Fee income per currency: released (earned) and still in the 7-day hold (pending). */
  resellerIncome: ResellerIncome[];
  /** The scope the reseller data was read for; null before the first read. */
  resellersScope: string | null;
  /** The last checkout created on behalf of a connected merchant (kept current by each read). */
  onBehalfCheckout: Scoped<CheckoutItem> | null;
  /** The last provisioning's answer. */
  provisioned: Scoped<ProvisionResult> | null;
  loadResellers: () => Promise<void>;
  /** Creates a connection (or updates and reactivates the one to the same merchant). */
  createConnection: (input: CreateConnectionBody) => Promise<boolean>;
  updateConnection: (connection: ResellerConnection, input: UpdateConnectionBody) => Promise<boolean>;
  deleteConnection: (connection: ResellerConnection) => Promise<boolean>;
  /** As the target merchant: the reseller loses access at once. */
  revokeConnection: (connection: ResellerConnection) => Promise<boolean>;
  createOnBehalfCheckout: (input: OnBehalfCheckout) => Promise<boolean>;
  provisionMerchant: (input: ProvisionBody) => Promise<boolean>;
}

/** A merchant's name for messages; its id when the list does not have it (yet). */
export const merchantName = (state: Pick<Store, 'merchants'>, id: string) =>
  state.merchants.find((m) => m.id === id)?.name ?? id;

/** Basis points as a percentage: 250 → "2.5 %". */
export const formatRate = (bps: number) =>
  `${(bps / 100).toLocaleString('en-GB', { maximumFractionDigits: 2 })} %`;

const describeTerms = (c: Pick<ResellerConnection, 'rate' | 'min_fee' | 'max_fee'>) => {
  const caps = [
    c.min_fee === null ? '' : `min ${formatAmount(c.min_fee)}`,
    c.max_fee === null ? '' : `max ${formatAmount(c.max_fee)}`,
  ].filter(Boolean);
  return `${formatRate(c.rate)}${caps.length ? ` (${caps.join(', ')})` : ''}`;
};

export const createResellersSlice: Slice<ResellersSlice> = (set, get) => {
  const load = serialized(async () => {
    const scope = currentScope(get());
    if (!scope) return;
    await attempt(get, async () => {
      const { merchantId, env } = scope;
      const onBehalf = get().onBehalfCheckout;
      const [connections, income, checkout] = await Promise.all([
        api.listResellerConnections(merchantId, env),
        api.getResellerIncome(merchantId, env),
        // A checkout that cannot be read any more (a reset meanwhile) just stops being followed.
        onBehalf?.scope === scope.key
          ? api
              .getCheckout(onBehalf.value.id)
              .then((detail) => detail.checkout)
              .catch(() => null)
          : null,
      ]);
      if (!stillCurrent(get, scope)) return;
      // A merchant made meanwhile by a script (or provisioning elsewhere) is named once the list has it.
      const known = new Set(get().merchants.map((m) => m.id));
      const named = [...connections.outgoing, ...connections.incoming].flatMap((c) => [
        c.merchant_id,
        c.reseller_id,
      ]);
      if (named.some((id) => !known.has(id))) void get().loadMerchants();
      set({
        outgoing: connections.outgoing,
        incoming: connections.incoming,
        resellerIncome: income,
        resellersScope: scope.key,
        ...(checkout && get().onBehalfCheckout?.value.id === checkout.id
          ? { onBehalfCheckout: { scope: scope.key, value: checkout } }
          : {}),
      });
    });
  });

  /** Runs a change in the current scope, says so, then reads everything again. */
  const change = scopedChange(get, load);

  return {
    outgoing: [],
    incoming: [],
    resellerIncome: [],
    resellersScope: null,
    onBehalfCheckout: null,
    provisioned: null,

    loadResellers: load,

    createConnection: (input) =>
      change(async ({ merchantId, env }) => {
        const connection = await api.createResellerConnection(merchantId, env, input);
        return `Connected to ${merchantName(get(), connection.merchant_id)} at ${describeTerms(connection)}.`;
      }),

    updateConnection: (connection, input) =>
      change(async () => {
        const updated = await api.updateResellerConnection(connection.id, input);
        return `Terms with ${merchantName(get(), updated.merchant_id)} now ${describeTerms(updated)}.`;
      }),

    deleteConnection: (connection) =>
      change(async () => {
        await api.deleteResellerConnection(connection.id);
        return `Connection to ${merchantName(get(), connection.merchant_id)} deleted.`;
      }),

    revokeConnection: (connection) =>
      change(async () => {
        await api.revokeResellerConnection(connection.id);
        return `${merchantName(get(), connection.reseller_id)} can no longer act for this merchant: connection revoked.`;
      }),

    createOnBehalfCheckout: (input) =>
      change(async ({ merchantId, env, key }) => {
        const expires = sandboxNow(get()) + input.hours * 3600_000;
        // As this merchant's owner, with the target in the body: the checkout is the target's.
        const checkout = await api.createCheckout(merchantId, env, {
          title: input.title,
          amount: input.amount,
          expires_at: new Date(expires).toISOString(),
          merchant_id: input.merchantId,
        });
        set({ onBehalfCheckout: { scope: key, value: checkout } });
        return `Checkout “${checkout.title}” created for ${merchantName(get(), checkout.merchant_id)}.`;
      }),

    provisionMerchant: (input) =>
      change(async ({ merchantId, env, key }) => {
        const result = await api.provisionMerchant(merchantId, env, input);
        set({ provisioned: { scope: key, value: result } });
        // The new merchant joins the list (and the pickers).
        await get().loadMerchants();
        return `Merchant “${result.merchant.name}” provisioned and connected at ${formatRate(input.rate)}.`;
      }),
  };
};
