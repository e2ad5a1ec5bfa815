/**
 * What `svc-sandbox record` never writes: API keys, webhook signing secrets, card data (numbers,
 * CVCs, expiry dates, the encrypted card data and PIN blocks, the session that unwraps them) and
 * identity-verification tokens. A value goes by its field's name, by its look (a `svcb_` key, a
 * `whsec_` secret, a bearer token, a card number that passes the Luhn check), and by being a secret
 * seen before (the key of an Authorization header, found again anywhere). Headers are never written.
 */

export const REDACTED = '<redacted>';

/** Fields whose value is a secret or card data, whatever it looks like (compared without `_` and case). */
const SECRET_FIELDS = new Set(
  [
    'authorization',
    'apikey',
    'key',
    'secret',
    'signingsecret',
    'webhooksecret',
    'password',
    'token',
    'session',
    'pan',
    'cardnumber',
    'number',
    'cvv',
    'cvc',
    'cvv2',
    'expmonth',
    'expyear',
    'expiry',
    'expirydate',
    'pin',
    'pinblock',
    'encrypteddata',
    'encryptedpan',
    'encryptedcvc',
    'encryptedcvv',
    'encryptedpin',
  ].map((name) => name),
);

const normalise = (field: string) => field.replace(/[_-]/g, '').toLowerCase();

export const isSecretField = (field: string): boolean => SECRET_FIELDS.has(normalise(field));

/** Keys, secrets and bearer tokens by their look. */
const KEY_LOOKING =
  /\b(svcb|whsec|sk|rk|pk)_[A-Za-z0-9_-]{8,}|\bBearer\s+[A-Za-z0-9._~+/=-]{8,}|\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g;

/** 13 to 19 digits, optionally grouped by spaces or dashes: a card number when it passes Luhn. */
const DIGIT_RUN = /\b\d(?:[ -]?\d){12,18}\b/g;

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The secrets a session has met (an Authorization header's key), to be found again anywhere. */
export class Secrets {
  private readonly known = new Set<string>();

  /** Remembers a secret value (shorter than 8 characters: too likely to occur by chance). */
  add(value: string): void {
    const trimmed = value.trim();
    if (trimmed.length >= 8) this.known.add(trimmed);
  }

  /** The key of an `Authorization: Bearer <key>` header (or the whole value). */
  addAuthorization(header: string | undefined): string | undefined {
    if (header === undefined) return undefined;
    const key = header.replace(/^Bearer\s+/i, '').trim();
    this.add(key);
    return key === '' ? undefined : key;
  }

  /** A string with every secret in it replaced. */
  text(value: string): string {
    let out = value;
    for (const secret of this.known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    out = out.replace(KEY_LOOKING, REDACTED);
    return out.replace(DIGIT_RUN, (run) => (luhn(run.replace(/[ -]/g, '')) ? REDACTED : run));
  }

  /** A copy of a JSON value with secrets replaced: whole values by field name, parts of strings by look. */
  value(value: unknown, field?: string): unknown {
    if (field !== undefined && isSecretField(field) && value !== null && value !== undefined) {
      if (typeof value === 'string') this.add(value);
      return REDACTED;
    }
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.value(v));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.value(v, k)]));
    return value;
  }
}
