import type { Clock } from '../../clock.js';
import type {
  CreateConnectionBody,
  ProvisionBody,
  ProvisionResult,
  ResellerConnection,
  ResellerConnections,
  ResellerIncome,
  UpdateConnectionBody,
} from '../../contract/resellers.js';
import type { CheckoutsRepo } from '../../db/checkouts.js';
import type { MerchantRow, MerchantsRepo } from '../../db/merchants.js';
import type { Page } from '../../db/pagination.js';
import type { ResellerConnectionRow, ResellersRepo } from '../../db/resellers.js';
import type { UsersRepo } from '../../db/users.js';
import {
  BusinessRuleError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '../../errors.js';
import type { Ids } from '../../ids.js';
import { isAlpha2Country } from '../countries.js';
import { Accounts, type Ledger } from '../ledger/service.js';
import type { MerchantService } from '../merchants/service.js';
import { resellerConnectionStates, TransitionError } from '../state.js';
import type { Env, Principal } from '../types.js';
import { hashPassword } from './passwords.js';

export interface ResellerDeps {
  connections: ResellersRepo;
  users: UsersRepo;
  merchants: Pick<MerchantsRepo, 'findById'>;
  /** provisioning makes its merchant exactly as every other merchant is made */
  merchantService: Pick<MerchantService, 'create'>;
  checkouts: Pick<CheckoutsRepo, 'heldResellerFees'>;
  ledger: Pick<Ledger, 'balancesOf'>;
  clock: Clock;
  ids: Ids;
  atomically: <T>(fn: () => T) => T;
}

export const toConnection = ({ env: _env, ...row }: ResellerConnectionRow): ResellerConnection => row;

interface Caps {
  min_fee: number | null;
  max_fee: number | null;
}

/**
 * The caps' one rule beyond the schema (non-negative integers or null): a floor above the ceiling
 * could never be met, so it is refused on `min_fee` (422 on the API; provisioning answers 400).
 */
function checkCaps(caps: Caps, error: (field: string, problem: string) => Error = validation): Caps {
  if (caps.min_fee !== null && caps.max_fee !== null && caps.min_fee > caps.max_fee) {
    throw error('min_fee', `must not exceed max_fee (${caps.min_fee} > ${caps.max_fee})`);
  }
  return caps;
}
const validation = (field: string, problem: string) => new ValidationError(field, problem);
const badRequest = (field: string, problem: string) => new BusinessRuleError(`${field}: ${problem}`);

/**
 * spec: Endpoints, Reseller. A reseller's connections to the merchants it acts for, each in one
 * environment; the target merchant's view of them (incoming, revoke); and provisioning a new
 * sub-merchant. Every status move goes through `resellerConnectionStates`.
 */
export class ResellerService {
  constructor(private readonly deps: ResellerDeps) {}

  // ---- the reseller's side ----------------------------------------------------------------------

  /**
   * POST /v1/reseller/connections: effective at once, no approval. A connection to the same
   * merchant already there (active or revoked) is updated and reactivated: same id, new terms.
   */
  create(principal: Principal, body: CreateConnectionBody): ResellerConnection {
    if (body.merchant_id === principal.merchantId) {
      throw new ValidationError('merchant_id', 'a merchant cannot connect to itself');
    }
    this.merchant(body.merchant_id);
    const caps = checkCaps({ min_fee: body.min_fee ?? null, max_fee: body.max_fee ?? null });
    return this.deps.atomically(() =>
      toConnection(this.connect(principal.env, principal.merchantId, body.merchant_id, body.rate, caps)),
    );
  }

  /**
   * PUT /v1/reseller/connections/{id}: the reseller's only. `rate` replaces the rate; a cap left
   * out keeps its value, null removes it. Only an active connection can be updated (the spec's
   * table lists PUT from active only): a revoked one is a 400, re-create it with POST.
   */
  update(principal: Principal, id: string, body: UpdateConnectionBody): ResellerConnection {
    const row = this.outgoing(principal, id);
    if (row.status !== 'active') {
      throw new TransitionError(
        resellerConnectionStates.resource,
        row.status,
        'active',
        `Cannot update a reseller connection with status ${row.status}: re-create it with POST /v1/reseller/connections`,
      );
    }
    const caps = checkCaps({
      min_fee: body.min_fee === undefined ? row.min_fee : body.min_fee,
      max_fee: body.max_fee === undefined ? row.max_fee : body.max_fee,
    });
    return this.deps.atomically(() => {
      const next: ResellerConnectionRow = {
        ...resellerConnectionStates.move(row, 'active'),
        rate: body.rate,
        ...caps,
        updated_at: this.deps.clock.nowIso(),
      };
      this.deps.connections.save(next);
      return toConnection(next);
    });
  }

  /** GET /v1/reseller/connections: the caller's outgoing connections, every status, newest first. */
  listOutgoing(principal: Principal, page: Page): ResellerConnection[] {
    return this.deps.connections.outgoing(principal.merchantId, principal.env, page).map(toConnection);
  }

  /** DELETE /v1/reseller/connections/{id}: the reseller removes the record, whatever its status. */
  remove(principal: Principal, id: string): void {
    this.outgoing(principal, id);
    this.deps.connections.delete(id);
  }

  // ---- the target merchant's side ---------------------------------------------------------------

  /** GET /v1/merchants/{id}/reseller-connections/incoming: {id} must be the caller. */
  listIncoming(principal: Principal, merchantId: string, page: Page): ResellerConnection[] {
    this.self(principal, merchantId);
    return this.deps.connections.incoming(merchantId, principal.env, page).map(toConnection);
  }

  /**
   * DELETE /v1/merchants/{id}/reseller-connections/{connection_id}: active → revoked, the record
   * kept. The reseller loses access at once: every on-behalf create reads the status.
   */
  revoke(principal: Principal, merchantId: string, connectionId: string): ResellerConnection {
    this.self(principal, merchantId);
    const row = this.deps.connections.findById(connectionId, principal.env);
    if (!row) throw new NotFoundError('Reseller connection', connectionId);
    if (row.merchant_id !== merchantId) {
      throw new ForbiddenError(`Reseller connection ${connectionId} does not target merchant ${merchantId}`);
    }
    return this.deps.atomically(() => {
      const next: ResellerConnectionRow = {
        ...resellerConnectionStates.move(
          row,
          'revoked',
          `Cannot revoke a reseller connection with status ${row.status}`,
        ),
        updated_at: this.deps.clock.nowIso(),
      };
      this.deps.connections.save(next);
      return toConnection(next);
    });
  }

  // ---- provisioning -----------------------------------------------------------------------------

  /**
   * POST /v1/reseller/provision: a user, a draft merchant (with its static addresses and owner key,
   * as every merchant) and an active connection to it, in one transaction. The checks, in order:
   * the production address (400 on test; nothing is looked at), the caller's KYB (403: a reseller
   * that may not provision learns nothing about the body or which emails exist), the body (400
   * naming the field: `schemaError` is the route's schema violation), then the email (409).
   */
  provision(principal: Principal, body: ProvisionBody, schemaError?: string): ProvisionResult {
    if (principal.env !== 'production') {
      throw new BusinessRuleError(
        'Provisioning is supported only on the production address, not the test address',
      );
    }
    const reseller = this.merchant(principal.merchantId);
    if (reseller.kyb_status !== 'approved') {
      throw new ForbiddenError(
        `Reseller KYB not approved (kyb_status: ${reseller.kyb_status}): provisioning needs kyb_status approved`,
      );
    }
    if (schemaError !== undefined) throw new BusinessRuleError(schemaError);
    if (!isAlpha2Country(body.country)) {
      throw badRequest('country', `not an ISO 3166-1 alpha-2 country code: ${body.country}`);
    }
    if (body.password.length < 6) throw badRequest('password', 'must be at least 6 characters');
    const caps = checkCaps({ min_fee: body.min_fee ?? null, max_fee: body.max_fee ?? null }, badRequest);
    if (this.deps.users.findByEmail(body.email)) {
      throw new ConflictError(`Email already registered: ${body.email}`);
    }
    const passwordHash = hashPassword(body.password);
    return this.deps.atomically(() => {
      const { merchant } = this.deps.merchantService.create({
        name: body.merchant_name,
        legal_name: body.legal_name,
        country: body.country,
        kyb_status: 'draft',
        btype: body.btype ?? 'company',
        ...(body.website === undefined ? {} : { website: body.website }),
      });
      const userId = this.deps.ids.uuid();
      this.deps.users.insert({
        id: userId,
        email: body.email,
        password_hash: passwordHash,
        full_name: body.full_name ?? null,
        merchant_id: merchant.id,
        created_at: this.deps.clock.nowIso(),
      });
      const connection = this.connect(principal.env, principal.merchantId, merchant.id, body.rate, caps);
      return {
        user_id: userId,
        merchant: {
          id: merchant.id,
          name: merchant.name,
          legal_name: body.legal_name,
          country: body.country,
          btype: body.btype ?? 'company',
          kyb_status: merchant.kyb_status,
          created_at: merchant.created_at,
        },
        connection_id: connection.id,
      };
    });
  }

  // ---- the control API --------------------------------------------------------------------------

  /** A connection by id in any environment (the control API acts in the connection's own). */
  find(id: string): ResellerConnectionRow {
    const row = this.deps.connections.findAnyEnv(id);
    if (!row) throw new NotFoundError('Reseller connection', id);
    return row;
  }

  /** A merchant's connections in one environment, both directions, every status, newest first. */
  connectionsOf(merchantId: string, env: Env): ResellerConnections {
    this.merchant(merchantId);
    return {
      outgoing: this.deps.connections.allOutgoing(merchantId, env).map(toConnection),
      incoming: this.deps.connections.allIncoming(merchantId, env).map(toConnection),
    };
  }

  /**
   * A reseller's fee income per currency: `earned` was released to `reseller:{id}:fees` at the
   * end of the 7-day hold, `pending` is still held (settled checkouts whose fees are not released;
   * a refund inside the hold has already reduced them).
   */
  income(merchantId: string, env: Env): ResellerIncome[] {
    this.merchant(merchantId);
    const byCurrency = new Map<string, ResellerIncome>();
    const entry = (currency: string) => {
      const found = byCurrency.get(currency) ?? { currency, earned: 0, pending: 0 };
      byCurrency.set(currency, found);
      return found;
    };
    for (const row of this.deps.ledger.balancesOf(env, [Accounts.resellerFees(merchantId)])) {
      entry(row.currency).earned += row.total;
    }
    for (const row of this.deps.checkouts.heldResellerFees(merchantId, env)) {
      entry(row.currency).pending += row.total;
    }
    return [...byCurrency.values()]
      .filter((i) => i.earned !== 0 || i.pending !== 0)
      .sort((a, b) => a.currency.localeCompare(b.currency));
  }

  // ---- shared -----------------------------------------------------------------------------------

  /** A new active connection, or the existing one of the pair updated and reactivated (same id). */
  private connect(
    env: Env,
    resellerId: string,
    merchantId: string,
    rate: number,
    caps: Caps,
  ): ResellerConnectionRow {
    const now = this.deps.clock.nowIso();
    const existing = this.deps.connections.findPair(resellerId, merchantId, env);
    if (existing) {
      const next: ResellerConnectionRow = {
        ...resellerConnectionStates.move(existing, 'active'),
        rate,
        ...caps,
        updated_at: now,
      };
      this.deps.connections.save(next);
      return next;
    }
    const row: ResellerConnectionRow = {
      id: this.deps.ids.uuid(),
      reseller_id: resellerId,
      merchant_id: merchantId,
      env,
      status: 'active',
      rate,
      ...caps,
      created_at: now,
      updated_at: now,
    };
    this.deps.connections.insert(row);
    return row;
  }

  /** The caller's own outgoing connection: unknown (in this environment) 404, another's 403. */
  private outgoing(principal: Principal, id: string): ResellerConnectionRow {
    const row = this.deps.connections.findById(id, principal.env);
    if (!row) throw new NotFoundError('Reseller connection', id);
    if (row.reseller_id !== principal.merchantId) {
      throw new ForbiddenError(
        'Reseller connection belongs to another reseller: only its reseller may change it',
      );
    }
    return row;
  }

  /** `{id}` in a merchant-side path: an unknown merchant is a 404, another merchant a 403. */
  private self(principal: Principal, merchantId: string): void {
    this.merchant(merchantId);
    if (merchantId !== principal.merchantId) {
      throw new ForbiddenError(
        `Merchant ${merchantId} is not the caller: a merchant sees only its own connections`,
      );
    }
  }

  private merchant(id: string): MerchantRow {
    const row = this.deps.merchants.findById(id);
    if (!row) throw new NotFoundError('Merchant', id);
    return row;
  }
}
