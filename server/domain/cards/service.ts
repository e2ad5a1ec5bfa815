import type { Clock } from '../../clock.js';
import type {
  ApplyBody,
  Card,
  Cardholder,
  CardholderDetail,
  CardTransactionItem,
  FundBody,
  IssueCardBody,
  LimitsBody,
} from '../../contract/cards.js';
import type { Settings } from '../../contract/settings.js';
import type {
  ApplicationRow,
  CardholderRow,
  CardRow,
  CardsRepo,
  CardTransactionRow,
} from '../../db/cards.js';
import type { Page } from '../../db/pagination.js';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import { BusinessRuleError, ForbiddenError, NotFoundError, ValidationError } from '../../errors.js';
import type { Ids } from '../../ids.js';
import type { EventRecorder } from '../events/recorder.js';
import { Accounts, type Ledger } from '../ledger/service.js';
import { formatMoney } from '../money/format.js';
import { cardStates, kycStates, TransitionError } from '../state.js';
import type { Env, Principal } from '../types.js';
import { expiry, generateCvc, generatePan, randomDigitsFrom } from './pan.js';

export const CARD_ACCOUNTS = {
  wallet: (cardholderId: string) => `cardholder:${cardholderId}:wallet`,
  /** authorization holds: frozen until settled, declined or reversed */
  held: (cardholderId: string) => `cardholder:${cardholderId}:held`,
} as const;

/** Wallet currencies and their USD rate (our choice: the USD stablecoins, at par). */
export const WALLET_RATES: Record<string, number> = { USDC: 1, USDT: 1 };

/** Default spending limits in micro-units (0 would mean no limit). */
export const DEFAULT_LIMITS = {
  spend_tx_max: 5_000_000_000,
  spend_daily_max: 10_000_000_000,
  spend_monthly_max: 50_000_000_000,
} as const;

export interface CardDeps {
  repo: CardsRepo;
  ledger: Ledger;
  events: Pick<EventRecorder, 'record'>;
  unit: Pick<UnitOfWork, 'atomically'>;
  clock: Clock;
  ids: Ids;
  settings: () => Settings;
  baseUrl: (env: Env) => string;
}

export const randomDigits = (ids: Ids) => randomDigitsFrom((n) => ids.bytes(n));

export const toCard = (row: CardRow): Card => ({
  id: row.id,
  user_id: row.cardholder_id,
  catalogue_id: row.catalogue_id,
  status: row.status,
  ctype: row.ctype,
  last4: row.last4,
  exp_month: row.exp_month,
  exp_year: row.exp_year,
  spend_tx_max: row.spend_tx_max,
  spend_daily_max: row.spend_daily_max,
  spend_monthly_max: row.spend_monthly_max,
  spend_online_enabled: row.spend_online_enabled === 1,
  spend_present_enabled: row.spend_present_enabled === 1,
  created_at: row.created_at,
});

export const toApplication = ({ merchant_id: _m, env: _e, ...row }: ApplicationRow) => row;

/** Cardholders, identity verification, applications, cards and wallet funding. */
export class CardService {
  constructor(private readonly deps: CardDeps) {}

  // ---- cardholders -----------------------------------------------------------------------------

  createHolder(principal: Principal, body: { name: string; email?: string | undefined }): Cardholder {
    const now = this.deps.clock.nowIso();
    const row: CardholderRow = {
      id: this.deps.ids.uuid(),
      merchant_id: principal.merchantId,
      env: principal.env,
      name: body.name,
      email: body.email ?? null,
      username: this.username(body.name),
      is_kyc_verified: 0,
      kyc_status: 'not_started',
      kyc_token: null,
      created_at: now,
      updated_at: now,
    };
    this.deps.repo.insertHolder(row);
    return this.presentHolders(principal.env, [row])[0]!;
  }

  listHolders(principal: Principal, page: Page): Cardholder[] {
    return this.listHoldersFor(principal.merchantId, principal.env, page);
  }

  listHoldersFor(merchantId: string, env: Env, page: Page): Cardholder[] {
    return this.presentHolders(env, this.deps.repo.listHolders(merchantId, env, page));
  }

  getHolder(principal: Principal, id: string): Cardholder {
    return this.presentHolders(principal.env, [this.ownedHolder(principal, id)])[0]!;
  }

  holderById(id: string): CardholderRow {
    const row = this.deps.repo.findHolder(id);
    if (!row) throw new NotFoundError('Cardholder', id);
    return row;
  }

  ownedHolder(principal: Principal, id: string): CardholderRow {
    const row = this.deps.repo.findHolder(id);
    if (!row || row.env !== principal.env) throw new NotFoundError('Cardholder', id);
    if (row.merchant_id !== principal.merchantId)
      throw new ForbiddenError('Cardholder belongs to another merchant');
    return row;
  }

  /** Balances of many cardholders in one query; only non-zero ones are shown (spec). */
  presentHolders(env: Env, rows: CardholderRow[]): Cardholder[] {
    const accounts = rows.map((r) => CARD_ACCOUNTS.wallet(r.id));
    const balances = new Map<string, Cardholder['balances']>();
    for (const b of rows.length ? this.deps.ledger.balancesOf(env, accounts) : []) {
      if (b.total === 0) continue;
      const rate = WALLET_RATES[b.currency] ?? 1;
      const list = balances.get(b.account) ?? [];
      list.push({ currency: b.currency, balance: b.total, rate, value: Math.round(b.total * rate) });
      balances.set(b.account, list);
    }
    return rows.map((row) => ({
      id: row.id,
      merchant_id: row.merchant_id,
      name: row.name,
      email: row.email,
      username: row.username,
      is_kyc_verified: row.is_kyc_verified === 1,
      balances: balances.get(CARD_ACCOUNTS.wallet(row.id)) ?? [],
      created_at: row.created_at,
    }));
  }

  // ---- identity verification -------------------------------------------------------------------

  /** A token for the identity provider's web SDK; the sandbox hosts the provider's page at `url`. */
  startKyc(principal: Principal, id: string): { token: string; url: string } {
    const row = this.ownedHolder(principal, id);
    const token = `kyc_${this.deps.ids.token(32)}`;
    // A session on a verified cardholder changes nothing but the token.
    const kycStatus = row.is_kyc_verified ? row.kyc_status : 'pending';
    if (kycStatus !== row.kyc_status) kycStates.assert(row.kyc_status, kycStatus);
    this.deps.repo.updateHolder({
      ...row,
      kyc_token: token,
      kyc_status: kycStatus,
      updated_at: this.deps.clock.nowIso(),
    });
    return { token, url: `${this.deps.baseUrl(principal.env)}/kyc/${token}` };
  }

  // ---- applications ----------------------------------------------------------------------------

  apply(principal: Principal, holderId: string, body: ApplyBody) {
    const holder = this.ownedHolder(principal, holderId);
    this.product(body.catalogue);
    for (const field of ['annual_salary', 'expected_monthly_volume'] as const) {
      const [low, high] = body[field].split('_').map(Number) as [number, number];
      if (low > high) throw new ValidationError(field, `band ${body[field]} runs backwards (low_high)`);
    }
    if (!holder.is_kyc_verified) {
      throw new BusinessRuleError(
        `Cardholder is not KYC-verified (kyc: ${holder.kyc_status}); verify identity before applying`,
      );
    }
    const now = this.deps.clock.nowIso();
    const row: ApplicationRow = {
      id: this.deps.ids.uuid(),
      cardholder_id: holder.id,
      merchant_id: holder.merchant_id,
      env: holder.env,
      catalogue: body.catalogue,
      status: this.deps.settings().application_review === 'auto' ? 'approved' : 'pending',
      account_purpose: body.account_purpose,
      occupation: body.occupation,
      annual_salary: body.annual_salary,
      expected_monthly_volume: body.expected_monthly_volume,
      created_at: now,
      updated_at: now,
    };
    this.deps.repo.insertApplication(row);
    return toApplication(row);
  }

  /** Control API: a cardholder of any merchant with its environment, KYC state, applications and cards. */
  holderDetail(id: string): CardholderDetail {
    const holder = this.holderById(id);
    const [presented] = this.presentHolders(holder.env, [holder]);
    return {
      cardholder: { ...presented!, env: holder.env, kyc_status: holder.kyc_status },
      applications: this.applications(holder.id),
      cards: this.deps.repo.cardsOf(holder.id).map(toCard),
    };
  }

  applications(holderId: string) {
    return this.deps.repo.applicationsOf(holderId).map(toApplication);
  }

  // ---- cards -----------------------------------------------------------------------------------

  issue(principal: Principal, holderId: string, body: IssueCardBody): Card {
    const holder = this.ownedHolder(principal, holderId);
    const product = this.product(body.catalogue);
    const approved = this.deps.repo
      .applicationsOf(holder.id)
      .some((a) => a.catalogue === body.catalogue && a.status === 'approved');
    if (!approved)
      throw new BusinessRuleError(`No approved card application for catalogue ${body.catalogue}`);
    if (product.type !== body.type) {
      throw new BusinessRuleError(
        `Card product ${product.name} is ${product.type}; cannot issue a ${body.type} card`,
      );
    }
    const digits = randomDigits(this.deps.ids);
    const pan = generatePan(digits);
    const now = this.deps.clock.now();
    const row: CardRow = {
      id: this.deps.ids.uuid(),
      cardholder_id: holder.id,
      merchant_id: holder.merchant_id,
      env: holder.env,
      catalogue_id: body.catalogue,
      // PRODUCT.md: a virtual card is issued active, a physical one notActivated.
      status: body.type === 'virtual' ? 'active' : 'notActivated',
      ctype: body.type,
      last4: pan.slice(-4),
      ...expiry(now),
      pan,
      cvc: generateCvc(digits),
      pin: digits(4),
      ...DEFAULT_LIMITS,
      spend_online_enabled: 1,
      spend_present_enabled: 1,
      created_at: new Date(now).toISOString(),
      updated_at: new Date(now).toISOString(),
    };
    return this.deps.unit.atomically(() => {
      this.deps.repo.insertCard(row);
      this.deps.events.record(holder.env, holder.merchant_id, 'card.created', {
        id: row.id,
        cardholder_id: row.cardholder_id,
        status: row.status,
        ctype: row.ctype,
        last4: row.last4,
        exp_month: row.exp_month,
        exp_year: row.exp_year,
        created_at: row.created_at,
      });
      return toCard(row);
    });
  }

  listCards(principal: Principal, holderId: string): Card[] {
    return this.deps.repo.cardsOf(this.ownedHolder(principal, holderId).id).map(toCard);
  }

  getCard(principal: Principal, holderId: string, cardId: string): Card {
    return toCard(this.ownedCard(principal, holderId, cardId));
  }

  ownedCard(principal: Principal, holderId: string, cardId: string): CardRow {
    const holder = this.ownedHolder(principal, holderId);
    const card = this.deps.repo.findCard(cardId);
    if (!card || card.cardholder_id !== holder.id) throw new NotFoundError('Card', cardId);
    return card;
  }

  cardById(id: string): CardRow {
    const card = this.deps.repo.findCard(id);
    if (!card) throw new NotFoundError('Card', id);
    return card;
  }

  /** Spec: active ⇄ locked only (PATCH); any other move is a 400. Setting the same status is a no-op. */
  setStatus(principal: Principal, holderId: string, cardId: string, status: 'active' | 'locked'): Card {
    const card = this.ownedCard(principal, holderId, cardId);
    if (card.status === status) return toCard(card);
    const message = `Cannot change a card from ${card.status} to ${status}`;
    if (card.status === 'notActivated') throw new TransitionError('card', card.status, status, message);
    return toCard(this.saveCard(cardStates.move(card, status, message)));
  }

  /** GET /v1/.../transactions: the spec's list item (the webhook payload has another shape). */
  listTransactions(
    principal: Principal,
    holderId: string,
    cardId: string,
    limit: number,
  ): CardTransactionItem[] {
    const card = this.ownedCard(principal, holderId, cardId);
    return this.deps.repo.transactionsOf(card.id, limit).map((tx) => ({
      id: tx.id,
      amount: tx.amount,
      currency: tx.currency,
      description: describe(tx),
      status: tx.status,
      created_at: tx.created_at,
    }));
  }

  setLimits(principal: Principal, holderId: string, cardId: string, body: LimitsBody): Card {
    const card = this.ownedCard(principal, holderId, cardId);
    const flag = (value: boolean | undefined, current: number) =>
      value === undefined ? current : value ? 1 : 0;
    return toCard(
      this.saveCard({
        ...card,
        spend_tx_max: body.spend_tx_max ?? card.spend_tx_max,
        spend_daily_max: body.spend_daily_max ?? card.spend_daily_max,
        spend_monthly_max: body.spend_monthly_max ?? card.spend_monthly_max,
        spend_online_enabled: flag(body.spend_online_enabled, card.spend_online_enabled),
        spend_present_enabled: flag(body.spend_present_enabled, card.spend_present_enabled),
      }),
    );
  }

  saveCard(card: CardRow): CardRow {
    const next = { ...card, updated_at: this.deps.clock.nowIso() };
    this.deps.repo.updateCard(next);
    return next;
  }

  // ---- wallet funding --------------------------------------------------------------------------

  /** Business wallet → cardholder wallet. */
  fund(principal: Principal, holderId: string, body: FundBody): void {
    const holder = this.ownedHolder(principal, holderId);
    const currency = this.walletCurrency(body.currency);
    const env = principal.env;
    this.deps.unit.atomically(() => {
      const available = this.deps.ledger.balance(env, Accounts.available(holder.merchant_id), currency);
      if (available < body.amount) {
        throw new BusinessRuleError(
          `Insufficient business wallet balance: available ${formatMoney(available, currency)}, requested ${formatMoney(body.amount, currency)}`,
        );
      }
      this.deps.ledger.post(
        env,
        'card.fund',
        holder.id,
        [
          { account: Accounts.available(holder.merchant_id), currency, amount: -body.amount },
          { account: CARD_ACCOUNTS.wallet(holder.id), currency, amount: body.amount },
        ],
        body.remark ?? null,
      );
    });
  }

  /** Cardholder wallet → business wallet (unused funds only: authorization holds stay). */
  recall(principal: Principal, holderId: string, body: FundBody): void {
    const holder = this.ownedHolder(principal, holderId);
    const currency = this.walletCurrency(body.currency);
    const env = principal.env;
    this.deps.unit.atomically(() => {
      const balance = this.deps.ledger.balance(env, CARD_ACCOUNTS.wallet(holder.id), currency);
      if (balance < body.amount) {
        throw new BusinessRuleError(
          `Insufficient cardholder balance: available ${formatMoney(balance, currency)}, requested ${formatMoney(body.amount, currency)}`,
        );
      }
      this.deps.ledger.post(
        env,
        'card.recall',
        holder.id,
        [
          { account: CARD_ACCOUNTS.wallet(holder.id), currency, amount: -body.amount },
          { account: Accounts.available(holder.merchant_id), currency, amount: body.amount },
        ],
        body.remark ?? null,
      );
    });
  }

  walletCurrency(currency: string): string {
    const upper = currency.toUpperCase();
    if (WALLET_RATES[upper] === undefined) {
      throw new ValidationError(
        'currency',
        `cardholder wallets hold ${Object.keys(WALLET_RATES).join(' or ')}, not ${upper}`,
      );
    }
    return upper;
  }

  private product(id: string) {
    const product = this.deps.settings().card_catalogue.find((p) => p.id === id);
    if (!product)
      throw new ValidationError('catalogue', `unknown card product ${id} (see GET /sandbox/card-catalogue)`);
    return product;
  }

  private username(name: string): string {
    const base =
      name
        .normalize('NFKD')
        .replace(/[^A-Za-z0-9]+/g, '.')
        .replace(/^\.+|\.+$/g, '')
        .toLowerCase()
        .slice(0, 24) || 'cardholder';
    return `${base}.${randomDigits(this.deps.ids)(6)}`;
  }
}

function describe(tx: CardTransactionRow): string {
  const label = {
    card_payment: 'Card payment',
    card_refund: 'Refund',
    card_deposit: 'Deposit to card',
    card_withdraw: 'Withdrawal from card',
  }[tx.type];
  return tx.merchant_name ? `${label}: ${tx.merchant_name}` : label;
}
