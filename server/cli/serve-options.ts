/**
 * serve's options: the flags (util.parseArgs) and, for each, an SVC_SANDBOX_* environment variable
 * (what a container sets). A flag wins over its variable.
 */
import { parseArgs } from 'node:util';
import { UsageError } from './common.js';

export const USAGE = `Usage: svc-sandbox serve [options]

Runs the sandbox headless: the /v1 API on a test and a production address, the control API
(/sandbox), hosted pages and the dashboard.

Options (each also read from the environment variable after it; a flag wins over its variable):
  --port <n>        test address port (default 4010; 0 = any free port)        SVC_SANDBOX_PORT
  --prod-port <n>   production address port (default 4011; 0 = any free port) SVC_SANDBOX_PROD_PORT
  --host <addr>     interface to bind (default 127.0.0.1; 0.0.0.0 = all)       SVC_SANDBOX_HOST
  --db <path>       SQLite file, or :memory: (default ./svc-sandbox.db)         SVC_SANDBOX_DB
  --seed <text>     deterministic ids, keys and addresses                      SVC_SANDBOX_SEED
  --public-url <url>
                    the test address as clients reach it (a container's published
                    port, a proxy): hosted_url, the dashboard's links and the OpenAPI
                    servers name it, and its host name is accepted   SVC_SANDBOX_PUBLIC_URL
  --public-prod-url <url>
                    the same for the production address (default: --public-url's
                    host with the production port)              SVC_SANDBOX_PUBLIC_PROD_URL
  --allow-host <names>
                    more host names requests may be addressed to, comma-separated
                    (e.g. a compose service name); loopback names always are
                                                                SVC_SANDBOX_ALLOW_HOSTS
  --allow-remote-control
                    serve the control API (/sandbox, no key needed) to other machines too;
                    by default only clients on this machine reach it, whatever --host is
                                                                SVC_SANDBOX_ALLOW_REMOTE_CONTROL
  --control-token <secret>
                    every control call must send it in the X-SVC-Control-Token header
                    (the dashboard asks for it once); for shared environments
                                                                SVC_SANDBOX_CONTROL_TOKEN
  --webhook-ca <file>
                    PEM certificates to trust for HTTPS webhook receivers, besides the
                    system's and NODE_EXTRA_CA_CERTS (a local CA such as mkcert's, or a
                    self-signed receiver's certificate)                  SVC_SANDBOX_WEBHOOK_CA
  --demo            once ready, build the sales demo in its own workspace named Demo (the
                    built-in demo scenario: branded merchants, checkouts in every state,
                    invoices, a reseller, cards, webhook deliveries with failures and retries)
                    and print the dashboard address that opens on it. Built once per database
                    file: a later --demo reuses it; its checkpoint "demo" brings it back after
                    a pitch (svc-sandbox checkpoint restore demo --workspace Demo)
                                                                SVC_SANDBOX_DEMO
  --fresh           with --demo: delete the Demo workspace and build the demo anew
                                                                SVC_SANDBOX_DEMO_FRESH
  -h, --help        show this help

A boolean variable is true for 1, true, yes or on, false for 0, false, no, off or empty.
`;

export interface ServeOptions {
  port: number;
  prodPort: number;
  host: string;
  db: string;
  seed: string | undefined;
  publicUrl: string | undefined;
  publicProdUrl: string | undefined;
  allowHosts: string[];
  allowRemoteControl: boolean;
  controlToken: string | undefined;
  webhookCa: string | undefined;
  demo: boolean;
  /** with demo: reset and build it anew rather than reuse the one in the file */
  fresh: boolean;
}

function port(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new UsageError(`--${name} must be a port number (0-65535), got ${value}`);
  return Number(value);
}

/** An http(s) origin: no path (the dashboard and the pages live at the root), no credentials. */
function publicUrl(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--${name} must be an http(s) URL, got ${value}`);
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== '' ||
    url.password !== ''
  )
    throw new UsageError(`--${name} must be an http(s) origin such as http://localhost:4010, got ${value}`);
  return url.origin;
}

/** The flags' environment variables (a container sets its configuration there). */
export const SERVE_ENV = {
  port: 'SVC_SANDBOX_PORT',
  'prod-port': 'SVC_SANDBOX_PROD_PORT',
  host: 'SVC_SANDBOX_HOST',
  db: 'SVC_SANDBOX_DB',
  seed: 'SVC_SANDBOX_SEED',
  'public-url': 'SVC_SANDBOX_PUBLIC_URL',
  'public-prod-url': 'SVC_SANDBOX_PUBLIC_PROD_URL',
  'allow-host': 'SVC_SANDBOX_ALLOW_HOSTS',
  'allow-remote-control': 'SVC_SANDBOX_ALLOW_REMOTE_CONTROL',
  'control-token': 'SVC_SANDBOX_CONTROL_TOKEN',
  'webhook-ca': 'SVC_SANDBOX_WEBHOOK_CA',
  demo: 'SVC_SANDBOX_DEMO',
  fresh: 'SVC_SANDBOX_DEMO_FRESH',
} as const satisfies Partial<Record<keyof typeof OPTIONS, string>>;

type ServeFlag = keyof typeof SERVE_ENV;

function envBoolean(variable: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['', '0', 'false', 'no', 'off'].includes(v)) return false;
  throw new UsageError(`${variable} must be true or false (1/0, yes/no, on/off), got ${value}`);
}

export function parseServeArgs(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
): ServeOptions | 'help' {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length !== 1 || positionals[0] !== 'serve') {
    throw new UsageError(
      positionals.length === 0 ? 'missing command' : `unknown command: ${positionals.join(' ')}`,
    );
  }
  // A flag wins; an empty variable counts as unset (compose files often declare `VAR:` blank).
  const text = (flag: Exclude<ServeFlag, 'allow-remote-control' | 'demo' | 'fresh'>): string | undefined => {
    const value = values[flag] ?? env[SERVE_ENV[flag]];
    return value === '' ? undefined : value;
  };
  const flag = (name: 'allow-remote-control' | 'demo' | 'fresh'): boolean => {
    const value = env[SERVE_ENV[name]];
    return values[name] ?? (value === undefined ? false : envBoolean(SERVE_ENV[name], value));
  };
  const options: ServeOptions = {
    port: port('port', text('port'), 4010),
    prodPort: port('prod-port', text('prod-port'), 4011),
    host: text('host') ?? '127.0.0.1',
    db: text('db') ?? './svc-sandbox.db',
    seed: text('seed'),
    publicUrl: publicUrl('public-url', text('public-url')),
    publicProdUrl: publicUrl('public-prod-url', text('public-prod-url')),
    allowHosts: (text('allow-host') ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
    allowRemoteControl: flag('allow-remote-control'),
    controlToken: text('control-token'),
    webhookCa: text('webhook-ca'),
    demo: flag('demo'),
    fresh: flag('fresh'),
  };
  if (options.fresh && !options.demo) throw new UsageError('--fresh rebuilds the demo: use it with --demo');
  if (options.port !== 0 && options.port === options.prodPort)
    throw new UsageError('--port and --prod-port must differ');
  if (options.publicProdUrl !== undefined && options.publicUrl === undefined)
    throw new UsageError('--public-prod-url needs --public-url');
  return options;
}

/**
 * The production address as clients reach it: --public-prod-url, or --public-url's scheme and host
 * with the production listener's port (ports published as they are, the usual container set-up).
 */
export function publicProdUrl(options: ServeOptions, listenerPort: number): string | undefined {
  if (options.publicProdUrl !== undefined || options.publicUrl === undefined) return options.publicProdUrl;
  const url = new URL(options.publicUrl);
  url.port = String(listenerPort);
  return url.origin;
}

const OPTIONS = {
  port: { type: 'string' },
  'prod-port': { type: 'string' },
  host: { type: 'string' },
  db: { type: 'string' },
  seed: { type: 'string' },
  'public-url': { type: 'string' },
  'public-prod-url': { type: 'string' },
  'allow-host': { type: 'string' },
  'allow-remote-control': { type: 'boolean' },
  'control-token': { type: 'string' },
  'webhook-ca': { type: 'string' },
  demo: { type: 'boolean' },
  fresh: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;
