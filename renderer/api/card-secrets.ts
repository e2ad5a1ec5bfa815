// Reading a card's PAN, CVC and PIN: the spec's "Card secrets and PIN encryption model", done the way
// an integration's browser would do it, with WebCrypto only. It is the dashboard's "Reveal", and a
// working example to copy: the secrets cross the network only encrypted under a key that never
// leaves this page.
//
// The dashboard calls the control API's twins of the /v1 operations (it holds no API key), through
// api/sandbox.ts:
//   sandboxCreateCardSecret (POST /sandbox/cards/{id}/secrets)  ≙  revealCardSecrets (POST /v1/cardholders/{ch_id}/cards/{card_id}/secrets)
//   sandboxPinCard          (POST /sandbox/cards/{id}/pin)      ≙  getCardPin        (GET  /v1/cardholders/{ch_id}/cards/{card_id}/pin)
// Bodies, answers and encryption are the same.
import { getPublicKey, readCardPin, readCardSecrets } from './sandbox';
import type { EncryptedData, Env } from './types';

export interface CardSecrets {
  pan: string;
  cvc: string;
  pin: string;
}

const subtle = () => {
  // WebCrypto exists only in a secure context: https, or http on localhost / 127.0.0.1.
  if (!globalThis.crypto?.subtle)
    throw new Error('WebCrypto is unavailable (the page is not a secure context).');
  return globalThis.crypto.subtle;
};

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** The DER bytes inside a `-----BEGIN PUBLIC KEY-----` PEM (SubjectPublicKeyInfo). */
const spki = (pem: string) => fromBase64(pem.replace(/-----(BEGIN|END) PUBLIC KEY-----|\s+/g, ''));

/**
 * Steps 1 and 2: a random 32-byte AES key, and `session` = base64(RSA-OAEP-SHA1(the UTF-8 bytes of
 * the key's base64 text)) under the environment's public key. Note the key is wrapped as base64
 * *text*, not as raw bytes.
 */
async function newSession(publicKeyPem: string): Promise<{ key: CryptoKey; session: string }> {
  const raw = crypto.getRandomValues(new Uint8Array(32));
  const rsa = await subtle().importKey(
    'spki',
    spki(publicKeyPem),
    { name: 'RSA-OAEP', hash: 'SHA-1' },
    false,
    ['encrypt'],
  );
  const wrapped = await subtle().encrypt({ name: 'RSA-OAEP' }, rsa, new TextEncoder().encode(toBase64(raw)));
  // Kept as a non-extractable CryptoKey: once wrapped, the raw bytes are not needed again.
  const key = await subtle().importKey('raw', raw, { name: 'AES-GCM' }, false, ['decrypt']);
  return { key, session: toBase64(new Uint8Array(wrapped)) };
}

/** Step 4: AES-256-GCM; `data` is ciphertext followed by the 16-byte tag, which is WebCrypto's layout. */
async function decrypt(key: CryptoKey, payload: EncryptedData): Promise<string> {
  const plain = await subtle().decrypt(
    { name: 'AES-GCM', iv: fromBase64(payload.iv), tagLength: 128 },
    key,
    fromBase64(payload.data),
  );
  return new TextDecoder().decode(plain);
}

/** Step 6: PIN block `2` + length (one hex digit) + digits + `F` padding to 16 characters. */
function pinFromBlock(block: string): string {
  const length = Number.parseInt(block.charAt(1), 16);
  const pin = block.slice(2, 2 + length);
  if (block.charAt(0) !== '2' || !/^[0-9]{4,12}$/.test(pin)) throw new Error('The PIN block is malformed.');
  return pin;
}

/** Step 3 and back: one session for both reads, everything decrypted here in the page. */
export async function revealCardSecrets(cardId: string, env: Env): Promise<CardSecrets> {
  const { public_key_pem: pem } = await getPublicKey(env);
  const { key, session } = await newSession(pem);
  const [{ encryptedPan, encryptedCvc }, { encryptedPin }] = await Promise.all([
    readCardSecrets(cardId, session),
    readCardPin(cardId, session),
  ]);
  return {
    pan: await decrypt(key, encryptedPan),
    cvc: await decrypt(key, encryptedCvc),
    pin: pinFromBlock(await decrypt(key, encryptedPin)),
  };
}
