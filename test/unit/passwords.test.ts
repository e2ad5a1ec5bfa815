import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../server/domain/resellers/passwords.js';

describe('provisioned users’ passwords (scrypt)', () => {
  it('is stored as scrypt$N$r$p$salt$hash with a fresh 16-byte salt and a 32-byte key', () => {
    const stored = hashPassword('correct horse');
    const [scheme, n, r, p, salt, hash] = stored.split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', '16384', '8', '1']);
    expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
    expect(Buffer.from(hash!, 'base64')).toHaveLength(32);
    expect(stored).not.toContain('correct horse');
    // Same password, another salt, another hash.
    const again = hashPassword('correct horse');
    expect(again.split('$')[4]).not.toBe(salt);
    expect(again.split('$')[5]).not.toBe(hash);
  });

  it('verifies the password and nothing else', () => {
    const stored = hashPassword('pässwörd');
    expect(verifyPassword('pässwörd', stored)).toBe(true);
    expect(verifyPassword('passwörd', stored)).toBe(false);
    expect(verifyPassword('', stored)).toBe(false);
    expect(verifyPassword('pässwörd', 'bcrypt$1$2$3$4$5')).toBe(false);
    expect(verifyPassword('pässwörd', 'scrypt$16384$8$1$')).toBe(false);
  });
});
