import { constants, createPrivateKey, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  decrypt,
  type EncryptedData,
  encrypt,
  generateKeyPair,
  type KeyPairPem,
  openSession,
  PayloadError,
  PinError,
  parsePinBlock,
  pinBlock,
  SessionError,
} from '../../server/domain/cards/crypto.js';
import * as client from '../helpers/card-client.js';

let env: KeyPairPem;
let other: KeyPairPem;

beforeAll(() => {
  const ms: number[] = [];
  const pairs: KeyPairPem[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    pairs.push(generateKeyPair());
    ms.push(performance.now() - t);
  }
  env = pairs[0]!;
  other = pairs[1]!;
  const sorted = [...ms].sort((a, b) => a - b);
  console.log(
    `generateKeyPair (RSA-2048, forge over node:crypto) ms: ${ms.map((m) => m.toFixed(0)).join(', ')}; ` +
      `median ${sorted[2]!.toFixed(0)}`,
  );
});

/** Runs fn, which must throw, and returns what it threw. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

/** The error is exactly `type` (not a sibling class, not a bare Error) and its message starts with `prefix`. */
function expectError(fn: () => unknown, type: new (message: string) => Error, prefix: string): string {
  const error = thrown(fn);
  expect(error).toBeInstanceOf(type);
  expect((error as Error).constructor).toBe(type);
  expect((error as Error).message.startsWith(prefix)).toBe(true);
  return (error as Error).message;
}

/** A session whose RSA plaintext is exactly `plaintext` (for the malformed-plaintext cases). */
function sessionWithPlaintext(publicKeyPem: string, plaintext: Buffer): string {
  return publicEncrypt(
    { key: publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
    plaintext,
  ).toString('base64');
}

const PAN = '4242424242424242';
const CVC = '737';
const PINS = ['1234', '123456789012'];

describe('key pair', () => {
  it('public PEM is SubjectPublicKeyInfo, private is PKCS#8, RSA-2048 e=65537, LF line endings', () => {
    expect(env.publicKeyPem.startsWith('-----BEGIN PUBLIC KEY-----\n')).toBe(true);
    expect(env.publicKeyPem.trimEnd().endsWith('-----END PUBLIC KEY-----')).toBe(true);
    expect(env.privateKeyPem.startsWith('-----BEGIN PRIVATE KEY-----\n')).toBe(true);
    expect(env.publicKeyPem).not.toContain('\r');
    expect(env.privateKeyPem).not.toContain('\r');
    const pub = createPublicKey(env.publicKeyPem);
    expect(pub.asymmetricKeyType).toBe('rsa');
    expect(pub.asymmetricKeyDetails).toMatchObject({ modulusLength: 2048, publicExponent: 65537n });
    // The two halves belong together.
    expect(createPublicKey(createPrivateKey(env.privateKeyPem)).export({ type: 'spki', format: 'pem' })).toBe(
      env.publicKeyPem,
    );
    expect(other.publicKeyPem).not.toBe(env.publicKeyPem);
  });
});

describe('round trips with an integrator (node:crypto client)', () => {
  it('opens the session to the client key', () => {
    const { key, session } = client.newSession(env.publicKeyPem);
    expect(openSession(env.privateKeyPem, session).equals(key)).toBe(true);
  });

  it('PAN and CVC encrypted by the server decrypt on the client', () => {
    const { key, session } = client.newSession(env.publicKeyPem);
    const serverKey = openSession(env.privateKeyPem, session);
    const encryptedPan = encrypt(serverKey, PAN);
    const encryptedCvc = encrypt(serverKey, CVC);
    expect(Buffer.from(encryptedPan.iv, 'base64')).toHaveLength(16);
    expect(Buffer.from(encryptedPan.data, 'base64')).toHaveLength(PAN.length + 16);
    expect(encryptedPan.iv).not.toBe(encryptedCvc.iv);
    expect(client.decryptPayload(key, encryptedPan)).toBe(PAN);
    expect(client.decryptPayload(key, encryptedCvc)).toBe(CVC);
  });

  for (const pin of PINS) {
    it(`PIN of ${pin.length} digits: read (server → client) and set (client → server)`, () => {
      const { key, session } = client.newSession(env.publicKeyPem);
      const serverKey = openSession(env.privateKeyPem, session);
      expect(client.readPinBlock(client.decryptPayload(key, encrypt(serverKey, pinBlock(pin))))).toBe(pin);
      const sent = client.encryptPayload(key, client.pinBlock(pin));
      expect(parsePinBlock(decrypt(serverKey, sent))).toBe(pin);
    });
  }
});

describe('round trips with an integrator (WebCrypto client)', () => {
  it('opens a session made with importKey(spki, RSA-OAEP SHA-1)', async () => {
    const { key, session } = await client.webNewSession(env.publicKeyPem);
    expect(openSession(env.privateKeyPem, session).equals(key)).toBe(true);
  });

  it('PAN and CVC encrypted by the server decrypt with AES-GCM tagLength 128', async () => {
    const { key, session } = await client.webNewSession(env.publicKeyPem);
    const serverKey = openSession(env.privateKeyPem, session);
    expect(await client.webDecryptPayload(key, encrypt(serverKey, PAN))).toBe(PAN);
    expect(await client.webDecryptPayload(key, encrypt(serverKey, CVC))).toBe(CVC);
  });

  for (const pin of PINS) {
    it(`PIN of ${pin.length} digits: read and set`, async () => {
      const { key, session } = await client.webNewSession(env.publicKeyPem);
      const serverKey = openSession(env.privateKeyPem, session);
      expect(
        client.readPinBlock(await client.webDecryptPayload(key, encrypt(serverKey, pinBlock(pin)))),
      ).toBe(pin);
      const sent = await client.webEncryptPayload(key, client.pinBlock(pin));
      expect(parsePinBlock(decrypt(serverKey, sent))).toBe(pin);
    });
  }

  it('the two clients agree with each other through the server key', async () => {
    const web = await client.webNewSession(env.publicKeyPem);
    const serverKey = openSession(env.privateKeyPem, web.session);
    expect(client.decryptPayload(web.key, await client.webEncryptPayload(serverKey, PAN))).toBe(PAN);
  });
});

describe('encrypt / decrypt', () => {
  const key = randomBytes(32);

  it('an injected IV makes the output deterministic', () => {
    const iv = Buffer.alloc(16, 7);
    const a = encrypt(key, PAN, iv);
    expect(a).toEqual(encrypt(key, PAN, iv));
    expect(a.iv).toBe(iv.toString('base64'));
    expect(decrypt(key, a)).toBe(PAN);
  });

  it('handles non-ASCII and empty plaintexts', () => {
    expect(decrypt(key, encrypt(key, 'Zoë ✓'))).toBe('Zoë ✓');
    expect(decrypt(key, encrypt(key, ''))).toBe('');
  });

  it('rejects programmer errors (key or IV of the wrong size) with RangeError', () => {
    expect(() => encrypt(randomBytes(16), PAN)).toThrow(RangeError);
    expect(() => encrypt(key, PAN, Buffer.alloc(12))).toThrow(RangeError);
  });

  const good = (): EncryptedData => encrypt(key, PAN);
  const flip = (b64: string, index: number): string => {
    const bytes = Buffer.from(b64, 'base64');
    bytes[index]! ^= 0x01;
    return bytes.toString('base64');
  };

  it('rejects tampered ciphertext, tampered tag, tampered IV and the wrong key', () => {
    const p = good();
    expectError(
      () => decrypt(key, { ...p, data: flip(p.data, 0) }),
      PayloadError,
      'encrypted_data: authentication',
    );
    expectError(
      () => decrypt(key, { ...p, data: flip(p.data, PAN.length + 15) }),
      PayloadError,
      'encrypted_data: ',
    );
    expectError(
      () => decrypt(key, { ...p, iv: flip(p.iv, 3) }),
      PayloadError,
      'encrypted_data: authentication',
    );
    expectError(() => decrypt(randomBytes(32), p), PayloadError, 'encrypted_data: authentication');
  });

  it('rejects bad IVs and short or non-base64 data', () => {
    const p = good();
    expectError(
      () => decrypt(key, { ...p, iv: 'not base64!' }),
      PayloadError,
      'encrypted_data: iv is not base64',
    );
    expectError(
      () => decrypt(key, { ...p, iv: randomBytes(12).toString('base64') }),
      PayloadError,
      'encrypted_data: iv must be 16',
    );
    expectError(
      () => decrypt(key, { ...p, iv: randomBytes(17).toString('base64') }),
      PayloadError,
      'encrypted_data: iv must be 16',
    );
    expectError(() => decrypt(key, { ...p, iv: '' }), PayloadError, 'encrypted_data: iv must be 16');
    expectError(
      () => decrypt(key, { ...p, data: '%%%%' }),
      PayloadError,
      'encrypted_data: data is not base64',
    );
    expectError(
      () => decrypt(key, { ...p, data: randomBytes(10).toString('base64') }),
      PayloadError,
      'encrypted_data: data must hold',
    );
    const missing = { iv: p.iv } as unknown as EncryptedData;
    expectError(() => decrypt(key, missing), PayloadError, 'encrypted_data: data is not base64');
  });
});

describe('openSession rejects with SessionError', () => {
  it('garbage that is not base64', () => {
    expectError(
      () => openSession(env.privateKeyPem, 'this is not base64!'),
      SessionError,
      'session: is not base64',
    );
    expectError(() => openSession(env.privateKeyPem, ''), SessionError, 'session: ');
  });

  it('random bytes of the right length', () => {
    for (let i = 0; i < 5; i++) {
      expectError(
        () => openSession(env.privateKeyPem, randomBytes(256).toString('base64')),
        SessionError,
        "session: cannot decrypt with this environment's key",
      );
    }
  });

  it('base64 of the wrong length for an RSA-2048 ciphertext', () => {
    const msg = expectError(
      () => openSession(env.privateKeyPem, randomBytes(128).toString('base64')),
      SessionError,
      'session: must be 256 bytes',
    );
    expect(msg).toContain('got 128');
  });

  it('a session made with another key pair', () => {
    const { session } = client.newSession(other.publicKeyPem);
    expectError(
      () => openSession(env.privateKeyPem, session),
      SessionError,
      "session: cannot decrypt with this environment's key",
    );
    // ...which the other environment opens.
    expect(openSession(other.privateKeyPem, session)).toHaveLength(32);
  });

  it('a session wrapped with PKCS#1 v1.5 or OAEP-SHA256 instead of OAEP-SHA1', () => {
    const plaintext = Buffer.from(randomBytes(32).toString('base64'), 'utf8');
    const v15 = publicEncrypt({ key: env.publicKeyPem, padding: constants.RSA_PKCS1_PADDING }, plaintext);
    const sha256 = publicEncrypt(
      { key: env.publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      plaintext,
    );
    for (const wrapped of [v15, sha256]) {
      expectError(
        () => openSession(env.privateKeyPem, wrapped.toString('base64')),
        SessionError,
        'session: cannot decrypt',
      );
    }
  });

  it('a plaintext that is base64 of 16 bytes (AES-128 key)', () => {
    const session = sessionWithPlaintext(
      env.publicKeyPem,
      Buffer.from(randomBytes(16).toString('base64'), 'utf8'),
    );
    expectError(
      () => openSession(env.privateKeyPem, session),
      SessionError,
      'session: does not hold a 32-byte AES key',
    );
  });

  it('a plaintext that is not base64 (the raw key bytes, hex text, base64 with a newline)', () => {
    const raw = randomBytes(32);
    raw[0] = 0xff; // never a base64 character
    for (const plaintext of [
      raw,
      Buffer.from(randomBytes(32).toString('hex'), 'utf8'),
      Buffer.from(`${randomBytes(32).toString('base64')}\n`, 'utf8'),
    ]) {
      const session = sessionWithPlaintext(env.publicKeyPem, plaintext);
      expectError(
        () => openSession(env.privateKeyPem, session),
        SessionError,
        'session: does not hold a 32-byte AES key',
      );
    }
  });

  it('accepts a session with its base64 padding stripped', () => {
    const { key, session } = client.newSession(env.publicKeyPem);
    expect(session.endsWith('=')).toBe(true);
    expect(openSession(env.privateKeyPem, session.replace(/=+$/, '')).equals(key)).toBe(true);
  });

  it('a private key that does not parse is a server fault, not a SessionError', () => {
    const { session } = client.newSession(env.publicKeyPem);
    const error = thrown(() =>
      openSession('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n', session),
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(SessionError);
  });
});

describe('PIN block (format 2)', () => {
  it('builds the spec vectors', () => {
    expect(pinBlock('1234')).toBe('241234FFFFFFFFFF');
    expect(pinBlock('123456789012')).toBe('2C123456789012FF');
    expect(pinBlock('0000000')).toBe('270000000FFFFFFF');
    for (let n = 4; n <= 12; n++) {
      const pin = '9'.repeat(n);
      expect(pinBlock(pin)).toHaveLength(16);
      expect(parsePinBlock(pinBlock(pin))).toBe(pin);
      expect(client.pinBlock(pin)).toBe(pinBlock(pin));
    }
  });

  it('rejects PINs that are not 4 to 12 digits', () => {
    for (const pin of ['123', '1234567890123', '12a4', '', ' 1234', '１２３４']) {
      expectError(() => pinBlock(pin), PinError, 'PIN: must be 4 to 12 digits');
    }
  });

  it('parses the spec vectors, hex letters in either case', () => {
    expect(parsePinBlock('241234FFFFFFFFFF')).toBe('1234');
    expect(parsePinBlock('2C123456789012FF')).toBe('123456789012');
    expect(parsePinBlock('2c123456789012ff')).toBe('123456789012');
    expect(parsePinBlock('241234fFfFfFfFfF')).toBe('1234');
  });

  it('rejects malformed blocks with a PinError naming the problem', () => {
    const cases: [string, string][] = [
      ['241234FFFFFFFFF', 'PIN block: must be 16 characters, got 15'],
      ['241234FFFFFFFFFFF', 'PIN block: must be 16 characters, got 17'],
      ['', 'PIN block: must be 16 characters, got 0'],
      ['041234FFFFFFFFFF', "PIN block: must start with '2'"],
      ['F41234FFFFFFFFFF', "PIN block: must start with '2'"],
      ['231234FFFFFFFFFF', 'PIN block: second character'],
      ['2D1234FFFFFFFFFF', 'PIN block: second character'],
      ['201234FFFFFFFFFF', 'PIN block: second character'],
      ['2G1234FFFFFFFFFF', 'PIN block: second character'],
      ['241234FFFFFFFFFE', "PIN block: the 10 characters after the PIN must all be 'F'"],
      ['2412340000000000', 'PIN block: length says 4 digits but 14 digits follow'],
      ['241234 FFFFFFFFF', "PIN block: the 10 characters after the PIN must all be 'F'"],
      ['2412345FFFFFFFFF', 'PIN block: length says 4 digits but 5 digits follow'],
      ['26123FFFFFFFFFFF', "PIN block: length says 6 digits but only 3 digits follow before 'F'"],
      ['2412a4FFFFFFFFFF', "PIN block: length says 4 digits but only 2 digits follow before 'a'"],
      ['2C12345678901FFF', "PIN block: length says 12 digits but only 11 digits follow before 'F'"],
    ];
    for (const [block, message] of cases) {
      expect(expectError(() => parsePinBlock(block), PinError, 'PIN block: ')).toContain(message);
    }
  });
});
