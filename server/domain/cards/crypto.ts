import {
  constants,
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  type KeyObject,
  privateDecrypt,
  randomBytes,
} from 'node:crypto';
import { lazy } from '../../runtime/lazy-require.js';

// Loaded with the first key pair, not at start-up.
const nodeForge = lazy<typeof import('node-forge')>('node-forge');

/**
 * Card secrets and PIN encryption model (spec "Card secrets and PIN encryption model"):
 * an RSA key pair per environment, a `session` that carries the client's AES-256 key wrapped with
 * RSA-OAEP/SHA-1, AES-256-GCM payloads `{iv, data}` and format-2 PIN blocks. Pure functions: no
 * HTTP, no storage; the caller maps the error classes below to 400.
 */

/** Base of every error this module throws for bad client input. */
export class CardCryptoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
/** The `session` value is unusable: not base64, not decryptable with this key, or no 32-byte key inside. */
export class SessionError extends CardCryptoError {}
/** An encrypted data object `{iv, data}` is malformed or fails GCM authentication. */
export class PayloadError extends CardCryptoError {}
/** A PIN or PIN block breaks the format-2 rules. */
export class PinError extends CardCryptoError {}

export interface EncryptedData {
  /** base64 of the 16-byte IV */
  iv: string;
  /** base64(ciphertext ‖ 16-byte GCM tag) */
  data: string;
}

export interface KeyPairPem {
  /** SubjectPublicKeyInfo, "-----BEGIN PUBLIC KEY-----" (WebCrypto importKey('spki') after the armor is stripped) */
  publicKeyPem: string;
  /** PKCS#8, "-----BEGIN PRIVATE KEY-----" */
  privateKeyPem: string;
}

const AES_KEY_BYTES = 32;
const IV_BYTES = 16;
const TAG_BYTES = 16;

/**
 * RSA-2048, e = 65537. Under Node, forge delegates to node:crypto's generateKeyPairSync (forge's
 * pure-JS prime search would take seconds); forge only writes the PEMs. Line endings are LF.
 */
export function generateKeyPair(): KeyPairPem {
  const forge = nodeForge();
  const { publicKey, privateKey } = forge.pki.rsa.generateKeyPair({ bits: 2048, e: 0x10001 });
  const publicKeyPem = forge.pki.publicKeyToPem(publicKey);
  const privateKeyPem = forge.pki.privateKeyInfoToPem(
    forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(privateKey)),
  );
  return { publicKeyPem: lf(publicKeyPem), privateKeyPem: lf(privateKeyPem) };
}

function lf(pem: string): string {
  return pem.replace(/\r\n/g, '\n');
}

// Parsing an RSA private key is the slow part of a decrypt; an environment's key is parsed once.
const KEY_CACHE_LIMIT = 32;
const keyCache = new Map<string, KeyObject>();

function privateKeyFor(pem: string): KeyObject {
  let key = keyCache.get(pem);
  if (key === undefined) {
    // A PEM that does not parse is a server fault, not the client's: let it throw as it is.
    key = createPrivateKey(pem);
    if (keyCache.size >= KEY_CACHE_LIMIT) {
      const oldest = keyCache.keys().next().value;
      if (oldest !== undefined) keyCache.delete(oldest);
    }
    keyCache.set(pem, key);
  }
  return key;
}

// Standard alphabet, padding optional, no whitespace, no base64url.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

function isBase64(text: string): boolean {
  return BASE64.test(text);
}

/**
 * Spec step 2 reversed: base64-decode `session`, RSA-OAEP (SHA-1, MGF1 SHA-1) decrypt it with the
 * environment's private key, read the plaintext as base64 text and return the 32 raw key bytes.
 * Every failure caused by the value is a SessionError.
 */
export function openSession(privateKeyPem: string, session: string): Buffer {
  const key = privateKeyFor(privateKeyPem);
  if (typeof session !== 'string' || session.length === 0)
    throw new SessionError('session: must be a non-empty base64 string');
  if (!isBase64(session)) throw new SessionError('session: is not base64');
  const ciphertext = Buffer.from(session, 'base64');
  const modulusBytes = Math.ceil((key.asymmetricKeyDetails?.modulusLength ?? 2048) / 8);
  if (ciphertext.length !== modulusBytes) {
    throw new SessionError(
      `session: must be ${modulusBytes} bytes of RSA-OAEP ciphertext once base64-decoded, got ${ciphertext.length}`,
    );
  }
  let plaintext: Buffer;
  try {
    plaintext = privateDecrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
      ciphertext,
    );
  } catch {
    throw new SessionError(
      "session: cannot decrypt with this environment's key (RSA-OAEP with SHA-1 and this environment's public key expected)",
    );
  }
  // The plaintext is the UTF-8 bytes of base64 text, so it must be ASCII base64 characters only.
  const text = plaintext.toString('latin1');
  const aesKey = isBase64(text) ? Buffer.from(text, 'base64') : undefined;
  if (aesKey === undefined || aesKey.length !== AES_KEY_BYTES) {
    throw new SessionError(
      'session: does not hold a 32-byte AES key (the RSA plaintext must be the base64 text of 32 raw key bytes)',
    );
  }
  return aesKey;
}

function checkKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length !== AES_KEY_BYTES) {
    throw new RangeError(`AES-256-GCM key must be ${AES_KEY_BYTES} bytes`);
  }
}

/** AES-256-GCM with a 16-byte IV (random unless given); data = base64(ciphertext ‖ tag). */
export function encrypt(key: Buffer, plaintext: string, iv: Buffer = randomBytes(IV_BYTES)): EncryptedData {
  checkKey(key);
  if (iv.length !== IV_BYTES) throw new RangeError(`IV must be ${IV_BYTES} bytes`);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { iv: iv.toString('base64'), data: body.toString('base64') };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Inverse of encrypt. Every failure caused by the payload is a PayloadError. */
export function decrypt(key: Buffer, payload: EncryptedData): string {
  checkKey(key);
  // Typed input, but it comes from JSON: check the shape at run time too.
  const iv: unknown = payload?.iv;
  const data: unknown = payload?.data;
  if (typeof iv !== 'string' || !isBase64(iv)) throw new PayloadError('encrypted_data: iv is not base64');
  if (typeof data !== 'string' || !isBase64(data))
    throw new PayloadError('encrypted_data: data is not base64');
  const ivBytes = Buffer.from(iv, 'base64');
  if (ivBytes.length !== IV_BYTES) {
    throw new PayloadError(`encrypted_data: iv must be ${IV_BYTES} bytes, got ${ivBytes.length}`);
  }
  const body = Buffer.from(data, 'base64');
  if (body.length < TAG_BYTES) {
    throw new PayloadError(
      `encrypted_data: data must hold the ciphertext followed by the ${TAG_BYTES}-byte GCM tag, got ${body.length} bytes`,
    );
  }
  const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
  } catch {
    throw new PayloadError('encrypted_data: authentication failed (wrong key, or iv or data altered)');
  }
  try {
    return utf8.decode(plain);
  } catch {
    throw new PayloadError('encrypted_data: plaintext is not UTF-8');
  }
}

/** Spec step 6: '2' + PIN length as one hex digit + PIN + 'F' × (14 − length), 16 characters. */
export function pinBlock(pin: string): string {
  if (typeof pin !== 'string' || !/^[0-9]{4,12}$/.test(pin))
    throw new PinError('PIN: must be 4 to 12 digits');
  return `2${pin.length.toString(16).toUpperCase()}${pin}${'F'.repeat(14 - pin.length)}`;
}

/**
 * Reads a format-2 PIN block and returns the PIN. Hex letters (the length nibble A–C and the 'F'
 * padding) are accepted in either case; everything else is exact.
 */
export function parsePinBlock(block: string): string {
  if (typeof block !== 'string' || block.length !== 16) {
    throw new PinError(
      `PIN block: must be 16 characters, got ${typeof block === 'string' ? block.length : typeof block}`,
    );
  }
  if (block[0] !== '2') throw new PinError(`PIN block: must start with '2', got '${block[0]}'`);
  const nibble = block[1]!;
  const length = /^[0-9a-fA-F]$/.test(nibble) ? Number.parseInt(nibble, 16) : Number.NaN;
  if (!(length >= 4 && length <= 12)) {
    throw new PinError(
      `PIN block: second character must be the PIN length as a hex digit 4 to C, got '${nibble}'`,
    );
  }
  const rest = block.slice(2);
  const digits = /^[0-9]*/.exec(rest)![0].length;
  if (digits < length) {
    throw new PinError(
      `PIN block: length says ${length} digits but only ${digits} digits follow before '${rest[digits]}'`,
    );
  }
  if (digits > length) {
    throw new PinError(`PIN block: length says ${length} digits but ${digits} digits follow`);
  }
  if (!/^[Ff]*$/.test(rest.slice(length))) {
    throw new PinError(`PIN block: the ${14 - length} characters after the PIN must all be 'F'`);
  }
  return rest.slice(0, length);
}
