import { constants, createCipheriv, createDecipheriv, publicEncrypt, randomBytes } from 'node:crypto';

/**
 * What an integrator does with card secrets, written from the spec alone (it does not import the
 * server's crypto module): twice, once with node:crypto and once with WebCrypto as a browser would.
 */
export interface EncryptedData {
  iv: string;
  data: string;
}

export interface ClientSession {
  /** the raw 32-byte AES key the client keeps */
  key: Buffer;
  /** base64(RSA-OAEP-SHA1(UTF-8 bytes of base64(key))), sent as `session` */
  session: string;
}

// ---- node:crypto ----

/** Spec steps 1–2: random AES key, wrapped with the environment's public key. */
export function newSession(publicKeyPem: string, key: Buffer = randomBytes(32)): ClientSession {
  const wrapped = publicEncrypt(
    { key: publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
    Buffer.from(key.toString('base64'), 'utf8'),
  );
  return { key, session: wrapped.toString('base64') };
}

/** Spec step 4: AES-256-GCM, the 16-byte tag is the tail of `data`. */
export function decryptPayload(key: Buffer, payload: EncryptedData): string {
  const body = Buffer.from(payload.data, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(payload.iv, 'base64'));
  decipher.setAuthTag(body.subarray(body.length - 16));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}

export function encryptPayload(key: Buffer, plaintext: string): EncryptedData {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { iv: iv.toString('base64'), data: body.toString('base64') };
}

/** Spec step 6. */
export function pinBlock(pin: string): string {
  return `2${pin.length.toString(16).toUpperCase()}${pin}`.padEnd(16, 'F');
}

/** Spec step 6, reading: the second character is the length, the digits follow. */
export function readPinBlock(block: string): string {
  const length = Number.parseInt(block.charAt(1), 16);
  return block.slice(2, 2 + length);
}

// ---- WebCrypto (globalThis.crypto.subtle), as in a browser ----

const subtle = globalThis.crypto.subtle;

function spkiFromPem(pem: string): Uint8Array<ArrayBuffer> {
  const b64 = pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
  return new Uint8Array(Buffer.from(b64, 'base64'));
}

function bytes(buffer: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(buffer);
}

function toBase64(buffer: ArrayBuffer | Uint8Array): string {
  return Buffer.from(buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer)).toString('base64');
}

export async function webNewSession(publicKeyPem: string): Promise<ClientSession> {
  const rsa = await subtle.importKey(
    'spki',
    spkiFromPem(publicKeyPem),
    { name: 'RSA-OAEP', hash: 'SHA-1' },
    false,
    ['encrypt'],
  );
  const raw = globalThis.crypto.getRandomValues(new Uint8Array(32));
  const plaintext = new TextEncoder().encode(toBase64(raw));
  const wrapped = await subtle.encrypt({ name: 'RSA-OAEP' }, rsa, plaintext);
  return { key: Buffer.from(raw), session: toBase64(wrapped) };
}

async function aesKey(rawKey: Uint8Array, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  return subtle.importKey('raw', bytes(rawKey), { name: 'AES-GCM' }, false, [usage]);
}

/** WebCrypto's AES-GCM output is ciphertext ‖ tag, exactly the `data` layout. */
export async function webDecryptPayload(rawKey: Uint8Array, payload: EncryptedData): Promise<string> {
  const plain = await subtle.decrypt(
    { name: 'AES-GCM', iv: bytes(Buffer.from(payload.iv, 'base64')), tagLength: 128 },
    await aesKey(rawKey, 'decrypt'),
    bytes(Buffer.from(payload.data, 'base64')),
  );
  return new TextDecoder().decode(plain);
}

export async function webEncryptPayload(rawKey: Uint8Array, plaintext: string): Promise<EncryptedData> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(16));
  const body = await subtle.encrypt(
    { name: 'AES-GCM', iv, tagLength: 128 },
    await aesKey(rawKey, 'encrypt'),
    new TextEncoder().encode(plaintext),
  );
  return { iv: toBase64(iv), data: toBase64(body) };
}
