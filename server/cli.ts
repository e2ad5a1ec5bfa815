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

Options:
  --port <n>        test address port (default 4010; 0 = any free port)
  --prod-port <n>   production address port (default 4011; 0 = any free port)
  --host <addr>     interface to bind (default 127.0.0.1)
  --db <path>       SQLite file, or :memory: (default ./svc-sandbox.db)
  --seed <text>     deterministic ids, keys and addresses
  --allow-remote-control
                    serve the control API (/sandbox, no key needed) to other machines too;
                    by default only clients on this machine reach it, whatever --host is
  --webhook-ca <file>
                    PEM certificates to trust for HTTPS webhook receivers, besides the
                    system's and NODE_EXTRA_CA_CERTS (a local CA such as mkcert's, or a
                    self-signed receiver's certificate)
  --demo            once ready, build a sales-demo workspace (the built-in demo scenario:
                    branded merchants, checkouts in every state, invoices, a reseller, cards,
                    webhook deliveries with failures and retries); prints a line when done.
                    Built once per database file: a later --demo reuses it
  --fresh           with --demo: reset the workspace and build the demo anew
  -h, --help        show this help
`;

export interface ServeOptions {
  port: number;
  prodPort: number;
  host: string;
  db: string;
  seed: string | undefined;
  allowRemoteControl: boolean;
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

export function parseServeArgs(argv: string[]): ServeOptions | 'help' {
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
  const options: ServeOptions = {
    port: port('port', values.port, 4010),
    prodPort: port('prod-port', values['prod-port'], 4011),
    host: values.host ?? '127.0.0.1',
    db: values.db ?? './svc-sandbox.db',
    seed: values.seed,
    allowRemoteControl: values['allow-remote-control'] ?? false,
    webhookCa: values['webhook-ca'],
    demo: values.demo ?? false,
    fresh: values.fresh ?? false,
  };
  if (options.fresh && !options.demo) throw new UsageError('--fresh rebuilds the demo: use it with --demo');
  if (options.port !== 0 && options.port === options.prodPort)
    throw new UsageError('--port and --prod-port must differ');
  return options;
}

const OPTIONS = {
  port: { type: 'string' },
  'prod-port': { type: 'string' },
  host: { type: 'string' },
  db: { type: 'string' },
  seed: { type: 'string' },
  'allow-remote-control': { type: 'boolean' },
  'webhook-ca': { type: 'string' },
  demo: { type: 'boolean' },
  fresh: { type: 'boolean' },
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
  let webhookCa: string[] | undefined;
  if (options.webhookCa !== undefined) {
    const { readCaBundle } = await import('./webhooks/trust.js');
    try {
      webhookCa = readCaBundle(options.webhookCa);
    } catch (error) {
      process.stderr.write(`svc-sandbox: --webhook-ca: ${(error as Error).message}\n`);
      process.exit(2);
    }
  }
  // After the load: the code cache the build made for it was made without the flag.
  favourMemory();
  try {
    sandbox = await createSandbox({
      dbPath: options.db,
      host: options.host,
      ports: { test: options.port, production: options.prodPort },
      seed: options.seed,
      allowRemoteControl: options.allowRemoteControl,
      webhookCa,
    });
    if (options.allowRemoteControl) {
      process.stderr.write(
        'svc-sandbox: warning: --allow-remote-control: anyone who can reach these ports can drive the sandbox without a key\n',
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
  if (options.demo) await (await import('./cli/demo.js')).buildDemo(sandbox, urls, options.fresh);
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) await main(process.argv.slice(2));
