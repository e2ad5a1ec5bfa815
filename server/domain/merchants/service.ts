import type { AddressSource } from '../../addresses/source.js';
import type { Clock } from '../../clock.js';
import type {
  ApiKey,
  CreateMerchantBody,
  Merchant,
  PatchMerchantBody,
  Role,
} from '../../contract/merchants.js';
import type { Settings } from '../../contract/settings.js';
import type { ApiKeyRow, ApiKeysRepo, MerchantRow, MerchantsRepo } from '../../db/merchants.js';
import type { StaticAddressesRepo } from '../../db/static-addresses.js';
import { NotFoundError, UnauthorizedError, ValidationError } from '../../errors.js';
import type { Ids } from '../../ids.js';
import { isAlpha2Country } from '../countries.js';
import { kybStates } from '../state.js';
import { ENVS } from '../types.js';

export const API_KEY_PREFIX = 'svcb_';

export interface MerchantDeps {
  merchants: MerchantsRepo;
  apiKeys: ApiKeysRepo;
  addresses: StaticAddressesRepo;
  /** new deposit addresses (the address worker's, or derived from `ids`) */
  addressSource: Pick<AddressSource, 'next'>;
  clock: Clock;
  ids: Ids;
  /** where the keys' secret part comes from (default: `ids`) */
  keyIds?: Ids | undefined;
  settings: () => Settings;
  atomically: <T>(fn: () => T) => T;
}

const toMerchant = (row: MerchantRow): Merchant => ({
  ...row,
  kyb_status: row.kyb_status,
});

/** API keys kept resolved in memory. */
export const KEY_CACHE_LIMIT = 1_000;

export class MerchantService {
  /**
   * Keys by their text. Every key change goes through this service (and reset clears it), so the
   * cache is exact: a revoked key fails on the very next request.
   */
  private readonly keyCache = new Map<string, ApiKeyRow>();

  constructor(private readonly deps: MerchantDeps) {}

  /**
   * A merchant comes with an owner key and its static addresses in both environments. Provisioning
   * (ResellerService.provision) makes its merchants here too, inside its own transaction.
   */
  create(body: CreateMerchantBody): { merchant: Merchant; api_key: ApiKey } {
    if (body.country !== undefined && !isAlpha2Country(body.country)) {
      throw new ValidationError('country', `not an ISO 3166-1 alpha-2 code: ${body.country}`);
    }
    const { clock, ids } = this.deps;
    return this.deps.atomically(() => {
      const now = clock.nowIso();
      const row: MerchantRow = {
        id: ids.uuid(),
        name: body.name,
        legal_name: body.legal_name ?? null,
        country: body.country ?? null,
        // The sandbox's merchants are ready to trade unless a test asks otherwise.
        kyb_status: body.kyb_status ?? 'approved',
        platform_rate: null,
        btype: body.btype ?? null,
        website: body.website ?? null,
        created_at: now,
        updated_at: now,
      };
      this.deps.merchants.insert(row);
      for (const env of ENVS) {
        for (const { chain } of this.deps.settings().chains) {
          this.deps.addresses.insert({
            merchant_id: row.id,
            env,
            chain,
            address: this.deps.addressSource.next(chain),
            created_at: now,
          });
        }
      }
      const apiKey = this.createKey(row.id, { name: 'Owner key', role: 'owner' });
      return { merchant: toMerchant(row), api_key: apiKey };
    });
  }

  list(): Merchant[] {
    return this.deps.merchants.list().map(toMerchant);
  }

  get(id: string): Merchant {
    return toMerchant(this.row(id));
  }

  patch(id: string, body: PatchMerchantBody): Merchant {
    const row = this.row(id);
    if (body.kyb_status !== undefined) kybStates.assert(row.kyb_status, body.kyb_status);
    const next: MerchantRow = {
      ...row,
      name: body.name ?? row.name,
      kyb_status: body.kyb_status ?? row.kyb_status,
      platform_rate: body.platform_rate === undefined ? row.platform_rate : body.platform_rate,
      updated_at: this.deps.clock.nowIso(),
    };
    this.deps.merchants.update(next);
    return toMerchant(next);
  }

  createKey(merchantId: string, body: { name: string; role?: Role | undefined }): ApiKey {
    this.row(merchantId);
    const row: ApiKeyRow = {
      id: this.deps.ids.uuid(),
      merchant_id: merchantId,
      name: body.name,
      role: body.role ?? 'developer',
      key: this.newKey(),
      created_at: this.deps.clock.nowIso(),
      revoked_at: null,
    };
    this.deps.apiKeys.insert(row);
    return row;
  }

  /**
   * Gives every key (revoked ones too) a new secret value, keeping its id, name and role: a
   * workspace forked from another must not answer to the other's keys (a key names one workspace).
   */
  reissueKeys(): void {
    this.deps.atomically(() => {
      for (const id of this.deps.apiKeys.allIds()) this.deps.apiKeys.setKey(id, this.newKey());
    });
    this.keyCache.clear();
  }

  /**
   * Gives a new key to every key `taken` says another workspace of the sandbox holds (after an
   * import of a bundle from that sandbox): a key finds exactly one workspace. Returns the new keys.
   */
  reissueKeysWhere(
    taken: (key: string) => boolean,
  ): { merchant_id: string; api_key_id: string; key: string }[] {
    const reissued: { merchant_id: string; api_key_id: string; key: string }[] = [];
    this.deps.atomically(() => {
      for (const id of this.deps.apiKeys.allIds()) {
        const row = this.deps.apiKeys.findById(id);
        if (!row || !taken(row.key)) continue;
        const key = this.newKey();
        this.deps.apiKeys.setKey(id, key);
        reissued.push({ merchant_id: row.merchant_id, api_key_id: id, key });
      }
    });
    if (reissued.length > 0) this.keyCache.clear();
    return reissued;
  }

  private newKey(): string {
    return `${API_KEY_PREFIX}${(this.deps.keyIds ?? this.deps.ids).token(40)}`;
  }

  listKeys(merchantId: string): ApiKey[] {
    this.row(merchantId);
    return this.deps.apiKeys.listByMerchant(merchantId);
  }

  revokeKey(id: string): ApiKey {
    const key = this.deps.apiKeys.findById(id);
    if (!key) throw new NotFoundError('API key', id);
    this.deps.apiKeys.revoke(id, this.deps.clock.nowIso());
    this.keyCache.delete(key.key);
    return this.deps.apiKeys.findById(id)!;
  }

  /** Resolves a bearer key; revoked keys fail on the very next request (no cache). */
  authenticate(key: string): ApiKeyRow {
    let row = this.keyCache.get(key);
    if (!row && key.startsWith(API_KEY_PREFIX)) {
      row = this.deps.apiKeys.findByKey(key);
      if (row) {
        // Bounded (oldest first out): memory stays flat however many merchants a suite creates.
        if (this.keyCache.size >= KEY_CACHE_LIMIT) this.keyCache.delete(this.keyCache.keys().next().value!);
        this.keyCache.set(key, row);
      }
    }
    if (!row) throw new UnauthorizedError('Invalid API key');
    if (row.revoked_at !== null) throw new UnauthorizedError('API key has been revoked');
    return row;
  }

  /** After a workspace reset. */
  clearCache(): void {
    this.keyCache.clear();
  }

  private row(id: string): MerchantRow {
    const row = this.deps.merchants.findById(id);
    if (!row) throw new NotFoundError('Merchant', id);
    return row;
  }
}
