#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { CliFailure, UsageError } from './cli/common.js';
import { favourMemory } from './memory.js';
import type { Sandbox, Urls } from './sandbox.js';
import { holdTickShape } from './tick-shape.js';

export { UsageError };

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
  --demo            once ready, build a sales-demo workspace (the built-in demo scenario:
                    branded merchants, checkouts in every state, invoices, a reseller, cards,
                    webhook deliveries with failures and retries); prints a line when done
                                                                SVC_SANDBOX_DEMO
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
  demo: boolean;
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
  demo: 'SVC_SANDBOX_DEMO',
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
  const text = (flag: Exclude<ServeFlag, 'allow-remote-control' | 'demo'>): string | undefined => {
    const value = values[flag] ?? env[SERVE_ENV[flag]];
    return value === '' ? undefined : value;
  };
  const flag = (name: 'allow-remote-control' | 'demo'): boolean => {
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
    demo: flag('demo'),
  };
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
  demo: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const HELP = `Usage: svc-sandbox <command> [options]

Commands:
  serve                     run the sandbox (the /v1 API, the control API, the dashboard)
  listen --forward-to <url> forward the sandbox's webhooks to your app, signatures intact
  logs tail                 stream events, webhook delivery attempts and requests as they happen
  merchants create <name>   create a merchant and print its owner API key
  merchants list            list the merchants
  clock [advance <d>|freeze|resume]
                            show or move the sandbox clock
  reset --yes               erase everything in the running sandbox
  export --out <bundle> [--db <file>] [--merchant <id>]
                            write the workspace (or one merchant) to a bundle file
  import <bundle> [--db <file>]
                            replace the workspace with a bundle's
  run FILE... [--junit <file>]
                            run scenario files, each in a fresh sandbox (or --url); exit 0 when
                            every step held, 1 when one failed, 2 when a file is invalid
  trigger <name> | --list   run a built-in scenario (one event sequence each) against the sandbox

Every command but serve and run talks to a running sandbox: --url <url> (default $SVC_SANDBOX_URL or
http://127.0.0.1:4010); export and import work on a database file instead with --db.
Run \`svc-sandbox <command> --help\` for a command's options.
Exit codes: 0 ok, 1 failure (no sandbox answering, an API error), 2 bad command line.

${USAGE}`;

type Command = (argv: string[]) => Promise<number | 'help'>;

/** The client commands, each loaded only when run (serve never loads them, nor they the server). */
const COMMANDS: Record<string, () => Promise<{ run: Command; usage: string }>> = {
  listen: async () => {
    const m = await import('./cli/listen.js');
    return { run: m.listen, usage: m.LISTEN_USAGE };
  },
  logs: async () => {
    const m = await import('./cli/logs.js');
    return { run: m.logs, usage: m.LOGS_USAGE };
  },
  merchants: async () => {
    const m = await import('./cli/merchants.js');
    return { run: m.merchants, usage: m.MERCHANTS_USAGE };
  },
  clock: async () => {
    const m = await import('./cli/clock.js');
    return { run: m.clock, usage: m.CLOCK_USAGE };
  },
  reset: async () => {
    const m = await import('./cli/reset.js');
    return { run: m.reset, usage: m.RESET_USAGE };
  },
  export: async () => {
    const m = await import('./cli/export.js');
    return { run: m.exportCommand, usage: m.EXPORT_USAGE };
  },
  import: async () => {
    const m = await import('./cli/import.js');
    return { run: m.importCommand, usage: m.IMPORT_USAGE };
  },
  run: async () => {
    const m = await import('./cli/run.js');
    return { run: m.run, usage: m.RUN_USAGE };
  },
  trigger: async () => {
    const m = await import('./cli/trigger.js');
    return { run: m.trigger, usage: m.TRIGGER_USAGE };
  },
};

/** Flags that take a value as the next argument: what follows them is not the command. */
const VALUE_FLAGS = new Set([
  '--port',
  '--prod-port',
  '--host',
  '--db',
  '--seed',
  '--public-url',
  '--public-prod-url',
  '--allow-host',
  '--control-token',
  '--url',
  '--forward-to',
  '--events',
  '--merchant',
  '--env',
  '--out',
  '--junit',
]);

function commandOf(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return argv[i + 1];
    if (arg.startsWith('-')) {
      if (VALUE_FLAGS.has(arg)) i++;
      continue;
    }
    return arg;
  }
  return undefined;
}

/** Exits once stdout has flushed (a pipe may still hold the last lines). */
function exit(code: number): void {
  process.stdout.write('', () => process.exit(code));
}

async function runClient(name: string, argv: string[]): Promise<void> {
  const { run, usage } = await COMMANDS[name]!();
  try {
    const result = await run(argv);
    if (result === 'help') {
      process.stdout.write(usage);
      exit(0);
    } else exit(result);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`svc-sandbox: ${error.message}\n\n${usage}`);
      exit(2);
    } else if (error instanceof CliFailure) {
      process.stderr.write(`svc-sandbox: ${error.message}\n`);
      exit(1);
    } else {
      process.stderr.write(`svc-sandbox: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
      exit(1);
    }
  }
}

export async function main(argv: string[]): Promise<void> {
  const command = commandOf(argv);
  if (command !== undefined && command in COMMANDS) return runClient(command, argv);
  let options: ServeOptions | 'help';
  try {
    options = parseServeArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`svc-sandbox: ${error.message}\n\n${command === 'serve' ? USAGE : HELP}`);
    process.exit(2);
  }
  if (options === 'help') {
    process.stdout.write(command === 'serve' ? USAGE : HELP);
    return;
  }
  // Signals are handled from the start: one during start-up still shuts down cleanly.
  let sandbox: Sandbox | undefined;
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`svc-sandbox: ${signal}, shutting down\n`);
    (sandbox ? sandbox.close() : Promise.resolve()).then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`svc-sandbox: error while closing: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));

  // Before anything loads: no major GC can have freed those maps yet (server/tick-shape.ts).
  holdTickShape();
  // Loaded only now, so --help and usage errors answer without loading the server.
  const { createSandbox } = await import('./sandbox.js');
  // After the load: the code cache the build made for it was made without the flag.
  favourMemory();
  try {
    sandbox = await createSandbox({
      dbPath: options.db,
      host: options.host,
      ports: { test: options.port, production: options.prodPort },
      seed: options.seed,
      publicUrls: { test: options.publicUrl, production: publicProdUrl(options, options.prodPort) },
      allowedHosts: options.allowHosts,
      allowRemoteControl: options.allowRemoteControl,
      controlToken: options.controlToken,
    });
    if (options.allowRemoteControl) {
      process.stderr.write(
        options.controlToken === undefined
          ? 'svc-sandbox: warning: remote control is on (--allow-remote-control): anyone who can reach these ports can drive the sandbox without a key; --control-token requires a shared secret\n'
          : 'svc-sandbox: remote control is on (--allow-remote-control), with a control token: control calls must send X-SVC-Control-Token\n',
      );
    }
  } catch (error) {
    const message = (error as Error).message;
    const hint = /locked|busy/i.test(message) ? ' (is another svc-sandbox using this file?)' : '';
    process.stderr.write(`svc-sandbox: cannot open ${options.db}: ${message}${hint}\n`);
    process.exit(1);
  }
  if (closing) return;
  let urls: Urls;
  try {
    urls = await sandbox.listen();
  } catch (error) {
    process.stderr.write(`svc-sandbox: cannot listen: ${(error as Error).message}\n`);
    await sandbox.close().catch(() => {});
    process.exit(1);
  }
  process.stdout.write(
    `svc-sandbox ready test=${urls.test} production=${urls.production} dashboard=${urls.dashboard}\n`,
  );
  // The demo drives the sandbox from inside: over the listeners, not the public addresses (which
  // may only mean something on the container's host).
  if (options.demo)
    await buildDemo(
      options.publicUrl === undefined ? urls : listenerUrls(sandbox, options.host),
      options.controlToken,
    );
}

/** The listeners' own addresses (loopback for an all-interfaces listener). */
function listenerUrls(sandbox: Sandbox, host: string): { test: string; production: string } {
  const name =
    host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  const local = (env: 'test' | 'production') => {
    const address = sandbox.apps[env].server.address();
    return `http://${name}:${address && typeof address === 'object' ? address.port : 0}`;
  };
  return { test: local('test'), production: local('production') };
}

/** serve --demo: runs the built-in demo scenario against this sandbox, over its own addresses. */
async function buildDemo(urls: { test: string; production: string }, controlToken?: string): Promise<void> {
  const [{ libraryText }, { parseScenario }, { runScenario }] = await Promise.all([
    import('./scenarios/library.js'),
    import('./scenarios/parse.js'),
    import('./scenarios/run.js'),
  ]);
  const parsed = parseScenario(libraryText('demo'));
  if (!parsed.ok) {
    process.stderr.write(`svc-sandbox: the demo scenario is invalid: ${parsed.errors[0]?.message}\n`);
    return;
  }
  try {
    const run = await runScenario({ urls, controlToken }, parsed.scenario);
    const failed = run.steps.filter((s) => !s.ok);
    if (run.ok)
      process.stdout.write(
        `svc-sandbox demo ready: ${run.steps.length} steps (svc-sandbox trigger --list for more)\n`,
      );
    else
      process.stderr.write(
        `svc-sandbox: the demo did not complete: ${failed.map((s) => `step ${s.index} ${s.label}: ${s.error}`).join('; ')}\n`,
      );
  } catch (error) {
    process.stderr.write(`svc-sandbox: the demo did not complete: ${(error as Error).message}\n`);
  }
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) await main(process.argv.slice(2));
