import type { Clock } from '../../clock.js';
import type { CardsRepo } from '../../db/cards.js';
import { BusinessRuleError } from '../../errors.js';
import type { Env, Principal } from '../types.js';
import {
  CardCryptoError,
  decrypt,
  type EncryptedData,
  encrypt,
  generateKeyPair,
  openSession,
  parsePinBlock,
  pinBlock,
} from './crypto.js';
import type { CardService } from './service.js';

/**
 * The card secrets exchange (spec: Card secrets and PIN encryption model). One RSA key pair per
 * environment, made on first need and kept in the database; PAN, CVC and PIN only ever leave
 * encrypted under the AES key the client sent inside `session`.
 */
export class CardSecrets {
  constructor(private readonly deps: { repo: CardsRepo; cards: CardService; clock: Clock }) {}

  keyPair(env: Env): { publicKeyPem: string; privateKeyPem: string } {
    const stored = this.deps.repo.rsaKey(env);
    if (stored) return { publicKeyPem: stored.public_key_pem, privateKeyPem: stored.private_key_pem };
    const pair = generateKeyPair();
    // INSERT OR IGNORE + re-read: whoever stored first wins, so the key never changes under a client.
    this.deps.repo.insertRsaKey(env, pair.publicKeyPem, pair.privateKeyPem, this.deps.clock.nowIso());
    const kept = this.deps.repo.rsaKey(env)!;
    return { publicKeyPem: kept.public_key_pem, privateKeyPem: kept.private_key_pem };
  }

  publicKey(env: Env): string {
    return this.keyPair(env).publicKeyPem;
  }

  secrets(principal: Principal, holderId: string, cardId: string, session: string) {
    const card = this.deps.cards.ownedCard(principal, holderId, cardId);
    const key = this.open(principal.env, session);
    return { encryptedPan: encrypt(key, card.pan), encryptedCvc: encrypt(key, card.cvc) };
  }

  getPin(principal: Principal, holderId: string, cardId: string, session: string) {
    const card = this.deps.cards.ownedCard(principal, holderId, cardId);
    const key = this.open(principal.env, session);
    if (card.pin === null) throw new BusinessRuleError('This card has no PIN set');
    return { encryptedPin: encrypt(key, pinBlock(card.pin)) };
  }

  setPin(
    principal: Principal,
    holderId: string,
    cardId: string,
    session: string,
    encrypted: EncryptedData,
  ): void {
    const card = this.deps.cards.ownedCard(principal, holderId, cardId);
    const key = this.open(principal.env, session);
    let pin: string;
    try {
      pin = parsePinBlock(decrypt(key, encrypted));
    } catch (error) {
      throw asBadRequest(error);
    }
    this.deps.cards.saveCard({ ...card, pin });
  }

  private open(env: Env, session: string): Buffer {
    try {
      return openSession(this.keyPair(env).privateKeyPem, session);
    } catch (error) {
      throw asBadRequest(error);
    }
  }
}

/** A session, payload or PIN block the client got wrong is a 400; anything else is a real fault. */
function asBadRequest(error: unknown): unknown {
  return error instanceof CardCryptoError ? new BusinessRuleError(error.message) : error;
}
