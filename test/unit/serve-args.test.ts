import { describe, expect, it } from 'vitest';
import {
  parseServeArgs,
  publicProdUrl,
  SERVE_ENV,
  type ServeOptions,
  USAGE,
  UsageError,
} from '../../server/cli/index.js';

/** serve's options from flags and environment variables (what a container sets). */
function parse(argv: string[], env: Record<string, string> = {}): ServeOptions {
  const options = parseServeArgs(['serve', ...argv], env);
  if (options === 'help') throw new Error('unexpected help');
  return options;
}

const DEFAULTS: ServeOptions = {
  port: 4010,
  prodPort: 4011,
  host: '127.0.0.1',
  db: './svc-sandbox.db',
  seed: undefined,
  publicUrl: undefined,
  publicProdUrl: undefined,
  allowHosts: [],
  allowRemoteControl: false,
  controlToken: undefined,
  webhookCa: undefined,
  demo: false,
  fresh: false,
};

describe('serve: environment variables', () => {
  it('defaults with neither flags nor variables', () => {
    expect(parse([])).toEqual(DEFAULTS);
  });

  it('reads every option from its variable', () => {
    const options = parse([], {
      SVC_SANDBOX_PORT: '5010',
      SVC_SANDBOX_PROD_PORT: '5011',
      SVC_SANDBOX_HOST: '0.0.0.0',
      SVC_SANDBOX_DB: '/data/svc-sandbox.db',
      SVC_SANDBOX_SEED: 'ci',
      SVC_SANDBOX_PUBLIC_URL: 'http://localhost:5010/',
      SVC_SANDBOX_PUBLIC_PROD_URL: 'http://localhost:5011',
      SVC_SANDBOX_ALLOW_HOSTS: 'sandbox, svc-sandbox ,',
      SVC_SANDBOX_ALLOW_REMOTE_CONTROL: 'true',
      SVC_SANDBOX_CONTROL_TOKEN: 's3cret',
      SVC_SANDBOX_WEBHOOK_CA: '/certs/ca.pem',
      SVC_SANDBOX_DEMO: '1',
      SVC_SANDBOX_DEMO_FRESH: 'yes',
    });
    expect(options).toEqual({
      port: 5010,
      prodPort: 5011,
      host: '0.0.0.0',
      db: '/data/svc-sandbox.db',
      seed: 'ci',
      publicUrl: 'http://localhost:5010',
      publicProdUrl: 'http://localhost:5011',
      allowHosts: ['sandbox', 'svc-sandbox'],
      allowRemoteControl: true,
      controlToken: 's3cret',
      webhookCa: '/certs/ca.pem',
      demo: true,
      fresh: true,
    });
  });

  it('lets a flag win over its variable', () => {
    const options = parse(['--port', '6010', '--db', ':memory:', '--control-token', 'flag'], {
      SVC_SANDBOX_PORT: '5010',
      SVC_SANDBOX_DB: '/data/x.db',
      SVC_SANDBOX_CONTROL_TOKEN: 'env',
    });
    expect(options).toMatchObject({ port: 6010, db: ':memory:', controlToken: 'flag' });
    expect(
      parse(['--allow-remote-control'], { SVC_SANDBOX_ALLOW_REMOTE_CONTROL: 'no' }).allowRemoteControl,
    ).toBe(true);
  });

  it('reads booleans in the usual spellings, empty as unset, anything else as an error naming the variable', () => {
    for (const yes of ['1', 'true', 'TRUE', 'yes', 'on'])
      expect(parse([], { SVC_SANDBOX_ALLOW_REMOTE_CONTROL: yes }).allowRemoteControl).toBe(true);
    for (const no of ['0', 'false', 'no', 'off', ''])
      expect(parse([], { SVC_SANDBOX_DEMO: no }).demo).toBe(false);
    expect(() => parse([], { SVC_SANDBOX_ALLOW_REMOTE_CONTROL: 'maybe' })).toThrow(
      /SVC_SANDBOX_ALLOW_REMOTE_CONTROL must be true or false/,
    );
    // An empty value (a compose file's `VAR:`) is no value: the default holds.
    expect(parse([], { SVC_SANDBOX_PORT: '', SVC_SANDBOX_CONTROL_TOKEN: '' })).toEqual(DEFAULTS);
  });

  it('validates variables as it validates flags', () => {
    expect(() => parse([], { SVC_SANDBOX_PORT: 'http' })).toThrow(UsageError);
    expect(() => parse([], { SVC_SANDBOX_PORT: '4011' })).toThrow(/must differ/);
    expect(() => parse([], { SVC_SANDBOX_PUBLIC_URL: 'localhost:4010' })).toThrow(/http\(s\)/);
    expect(() => parse([], { SVC_SANDBOX_PUBLIC_URL: 'http://host:4010/prefix' })).toThrow(/origin/);
    expect(() => parse([], { SVC_SANDBOX_PUBLIC_URL: 'ftp://host' })).toThrow(/origin/);
    expect(() => parse([], { SVC_SANDBOX_PUBLIC_PROD_URL: 'http://host:4011' })).toThrow(
      /needs --public-url/,
    );
  });

  it('derives the production public URL from the test one and the production port', () => {
    const options = parse([], { SVC_SANDBOX_PUBLIC_URL: 'https://sandbox.ci.example' });
    expect(options.publicUrl).toBe('https://sandbox.ci.example');
    expect(publicProdUrl(options, 4011)).toBe('https://sandbox.ci.example:4011');
    expect(
      publicProdUrl(parse(['--public-url', 'http://a:1', '--public-prod-url', 'http://b:2']), 4011),
    ).toBe('http://b:2');
    expect(publicProdUrl(parse([]), 4011)).toBeUndefined();
  });

  it('lists every variable in --help', () => {
    expect(Object.keys(SERVE_ENV).length).toBeGreaterThanOrEqual(12);
    for (const [flag, variable] of Object.entries(SERVE_ENV)) {
      expect(USAGE).toContain(`--${flag}`);
      expect(USAGE).toContain(variable);
    }
  });
});
