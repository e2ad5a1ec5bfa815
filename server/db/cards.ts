import type { CardTransactionStatus, KycStatus } from '../contract/cards.js';
import type { Env } from '../contract/common.js';
import { createScopedLister, type Page } from './pagination.js';
import type { Statements } from './statements.js';

export interface CardholderRow {
  id: string;
  merchant_id: string;
  env: Env;
  name: string;
  email: string | null;
  username: string;
  is_kyc_verified: number;
  kyc_status: KycStatus;
  kyc_token: string | null;
  created_at: string;
  updated_at: string;
}

export interface ApplicationRow {
  id: string;
  cardholder_id: string;
  merchant_id: string;
  env: Env;
  catalogue: string;
  status: 'pending' | 'approved' | 'rejected';
  account_purpose: string;
  occupation: string;
  annual_salary: string;
  expected_monthly_volume: string;
  created_at: string;
  updated_at: string;
}

export interface CardRow {
  id: string;
  cardholder_id: string;
  merchant_id: string;
  env: Env;
  catalogue_id: string;
  status: 'notActivated' | 'active' | 'locked' | 'canceled';
  ctype: 'virtual' | 'physical';
  last4: string;
  exp_month: string;
  exp_year: string;
  pan: string;
  cvc: string;
  pin: string | null;
  spend_tx_max: number;
  spend_daily_max: number;
  spend_monthly_max: number;
  spend_online_enabled: number;
  spend_present_enabled: number;
  created_at: string;
  updated_at: string;
}

export interface CardTransactionRow {
  id: string;
  card_id: string;
  cardholder_id: string;
  merchant_id: string;
  env: Env;
  type: 'card_payment' | 'card_refund' | 'card_deposit' | 'card_withdraw';
  status: CardTransactionStatus;
  amount: number;
  currency: string;
  local_amount: number;
  local_currency: string;
  merchant_name: string | null;
  channel: 'online' | 'present' | null;
  decline_reason: string | null;
  created_at: string;
  updated_at: string;
}

const insertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`;
const updateSql = (table: string, columns: readonly string[]) =>
  `UPDATE ${table} SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`;

const CARDHOLDER = [
  'id',
  'merchant_id',
  'env',
  'name',
  'email',
  'username',
  'is_kyc_verified',
  'kyc_status',
  'kyc_token',
  'created_at',
  'updated_at',
] as const;
const APPLICATION = [
  'id',
  'cardholder_id',
  'merchant_id',
  'env',
  'catalogue',
  'status',
  'account_purpose',
  'occupation',
  'annual_salary',
  'expected_monthly_volume',
  'created_at',
  'updated_at',
] as const;
const CARD = [
  'id',
  'cardholder_id',
  'merchant_id',
  'env',
  'catalogue_id',
  'status',
  'ctype',
  'last4',
  'exp_month',
  'exp_year',
  'pan',
  'cvc',
  'pin',
  'spend_tx_max',
  'spend_daily_max',
  'spend_monthly_max',
  'spend_online_enabled',
  'spend_present_enabled',
  'created_at',
  'updated_at',
] as const;
const TRANSACTION = [
  'id',
  'card_id',
  'cardholder_id',
  'merchant_id',
  'env',
  'type',
  'status',
  'amount',
  'currency',
  'local_amount',
  'local_currency',
  'merchant_name',
  'channel',
  'decline_reason',
  'created_at',
  'updated_at',
] as const;

export function createCardsRepo(sql: Statements) {
  const s = {
    insertHolder: sql.writeRow<CardholderRow>('cardholders', insertSql('cardholders', CARDHOLDER)),
    updateHolder: sql.writeRow<CardholderRow>('cardholders', updateSql('cardholders', CARDHOLDER.slice(1))),
    holder: sql.read<[string], CardholderRow>('SELECT * FROM cardholders WHERE id = ?'),
    holderByToken: sql.read<[string], CardholderRow>('SELECT * FROM cardholders WHERE kyc_token = ?'),
    insertApplication: sql.writeRow<ApplicationRow>(
      'card_applications',
      insertSql('card_applications', APPLICATION),
    ),
    updateApplication: sql.writeRow<ApplicationRow>(
      'card_applications',
      updateSql('card_applications', APPLICATION.slice(1)),
    ),
    application: sql.read<[string], ApplicationRow>('SELECT * FROM card_applications WHERE id = ?'),
    applicationsOf: sql.read<[string], ApplicationRow>(
      'SELECT * FROM card_applications WHERE cardholder_id = ? ORDER BY rowid DESC',
    ),
    insertCard: sql.writeRow<CardRow>('cards', insertSql('cards', CARD)),
    updateCard: sql.writeRow<CardRow>('cards', updateSql('cards', CARD.slice(1))),
    card: sql.read<[string], CardRow>('SELECT * FROM cards WHERE id = ?'),
    cardsOf: sql.read<[string], CardRow>('SELECT * FROM cards WHERE cardholder_id = ? ORDER BY rowid DESC'),
    insertTx: sql.writeRow<CardTransactionRow>(
      'card_transactions',
      insertSql('card_transactions', TRANSACTION),
    ),
    updateTx: sql.writeRow<CardTransactionRow>(
      'card_transactions',
      updateSql('card_transactions', TRANSACTION.slice(1)),
    ),
    tx: sql.read<[string], CardTransactionRow>('SELECT * FROM card_transactions WHERE id = ?'),
    txOfCard: sql.read<[string, number], CardTransactionRow>(
      'SELECT * FROM card_transactions WHERE card_id = ? ORDER BY rowid DESC LIMIT ?',
    ),
    spentSince: sql.read<[string, string], { total: number | null }>(
      `SELECT SUM(-amount) AS total FROM card_transactions
       WHERE card_id = ? AND type = 'card_payment' AND status IN ('requested', 'completed') AND created_at >= ?`,
    ),
    rsaKey: sql.read<[string], { public_key_pem: string; private_key_pem: string }>(
      'SELECT public_key_pem, private_key_pem FROM rsa_keys WHERE env = ?',
    ),
    insertRsaKey: sql.write(
      'rsa_keys',
      'INSERT OR IGNORE INTO rsa_keys (env, public_key_pem, private_key_pem, created_at) VALUES (?, ?, ?, ?)',
      (env: Env, _publicPem: string, _privatePem: string, _at: string) => ({ env }),
    ),
  };
  const listHolders = createScopedLister<CardholderRow>(sql.db, 'cardholders');
  return {
    insertHolder: (row: CardholderRow) => void s.insertHolder(row),
    updateHolder: (row: CardholderRow) => void s.updateHolder(row),
    findHolder: (id: string) => s.holder.get(id),
    findHolderByToken: (token: string) => s.holderByToken.get(token),
    listHolders: (merchantId: string, env: Env, page: Page) => listHolders(merchantId, env, page),
    insertApplication: (row: ApplicationRow) => void s.insertApplication(row),
    updateApplication: (row: ApplicationRow) => void s.updateApplication(row),
    findApplication: (id: string) => s.application.get(id),
    applicationsOf: (cardholderId: string) => s.applicationsOf.all(cardholderId),
    insertCard: (row: CardRow) => void s.insertCard(row),
    updateCard: (row: CardRow) => void s.updateCard(row),
    findCard: (id: string) => s.card.get(id),
    cardsOf: (cardholderId: string) => s.cardsOf.all(cardholderId),
    insertTransaction: (row: CardTransactionRow) => void s.insertTx(row),
    updateTransaction: (row: CardTransactionRow) => void s.updateTx(row),
    findTransaction: (id: string) => s.tx.get(id),
    transactionsOf: (cardId: string, limit: number) => s.txOfCard.all(cardId, limit),
    spentSince: (cardId: string, sinceIso: string) => s.spentSince.get(cardId, sinceIso)?.total ?? 0,
    rsaKey: (env: Env) => s.rsaKey.get(env),
    insertRsaKey: (env: Env, publicPem: string, privatePem: string, at: string) =>
      void s.insertRsaKey(env, publicPem, privatePem, at),
  };
}
export type CardsRepo = ReturnType<typeof createCardsRepo>;
