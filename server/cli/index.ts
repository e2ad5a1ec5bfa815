#!/usr/bin/env node
import { favourMemory } from '../runtime/memory.js';
import { holdTickShape } from '../runtime/tick-shape.js';
import type { Sandbox, Urls } from '../sandbox.js';
import { CliFailure, UsageError } from './common.js';
import { parseServeArgs, publicProdUrl, type ServeOptions, USAGE } from './serve-options.js';

export { parseServeArgs, publicProdUrl, SERVE_ENV, type ServeOptions, USAGE } from './serve-options.js';
export { UsageError };

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
                            run scenario files, each in a fresh sandbox (with --url: a fresh
                            workspace of that one); exit 0 when every step held, 1 when one
                            failed, 2 when a file is invalid
  trigger <name> | --list   run a built-in scenario (one event sequence each) against the sandbox
  workspaces create|list|delete
                            isolated worlds in one sandbox: own data, keys, clock, webhooks
  checkpoint save|restore|list|delete <name>
                            save a moment of a workspace and bring it back
  mcp                       a Model Context Protocol server on stdio: a coding agent drives the
                            sandbox (see Driving the sandbox from a coding agent in the README)
  faults set|list|clear     make the workspace's /v1 API fail on purpose (errors, 429s, latency,
                            timeouts, lost responses), seeded
  verify [--method …] [--path …] [--body …] [--count n]
                            check the requests your app sent (exit 1 when they do not match,
                            naming the near misses)
  check-receiver --url <receiver> --secret <s> [--junit <file>]
                            grade your webhook receiver (signatures over raw bytes, duplicates,
                            order, unknown types, speed); exit 0 when every case holds, 1 if not
  coverage                  the spec's events and state transitions the workspace reached

Every command but serve and run talks to a running sandbox: --url <url> (default $SVC_SANDBOX_URL or
http://127.0.0.1:4010), in the workspace --workspace <id|name> names (default $SVC_SANDBOX_WORKSPACE,
else the default workspace); export and import work on a database file instead with --db.
Run \`svc-sandbox <command> --help\` for a command's options.
\`svc-sandbox --version\` (or -v) prints the version.
Exit codes: 0 ok, 1 failure (no sandbox answering, an API error), 2 bad command line.

${USAGE}`;

type Command = (argv: string[]) => Promise<number | 'help'>;

/** The client commands, each loaded only when run (serve never loads them, nor they the server). */
const COMMANDS: Record<string, () => Promise<{ run: Command; usage: string }>> = {
  listen: async () => {
    const m = await import('./listen.js');
    return { run: m.listen, usage: m.LISTEN_USAGE };
  },
  logs: async () => {
    const m = await import('./logs.js');
    return { run: m.logs, usage: m.LOGS_USAGE };
  },
  merchants: async () => {
    const m = await import('./merchants.js');
    return { run: m.merchants, usage: m.MERCHANTS_USAGE };
  },
  clock: async () => {
    const m = await import('./clock.js');
    return { run: m.clock, usage: m.CLOCK_USAGE };
  },
  reset: async () => {
    const m = await import('./reset.js');
    return { run: m.reset, usage: m.RESET_USAGE };
  },
  export: async () => {
    const m = await import('./export.js');
    return { run: m.exportCommand, usage: m.EXPORT_USAGE };
  },
  import: async () => {
    const m = await import('./import.js');
    return { run: m.importCommand, usage: m.IMPORT_USAGE };
  },
  run: async () => {
    const m = await import('./run.js');
    return { run: m.run, usage: m.RUN_USAGE };
  },
  trigger: async () => {
    const m = await import('./trigger.js');
    return { run: m.trigger, usage: m.TRIGGER_USAGE };
  },
  workspaces: async () => {
    const m = await import('./workspaces.js');
    return { run: m.workspaces, usage: m.WORKSPACES_USAGE };
  },
  checkpoint: async () => {
    const m = await import('./checkpoint.js');
    return { run: m.checkpoint, usage: m.CHECKPOINT_USAGE };
  },
  mcp: async () => {
    const m = await import('./mcp.js');
    return { run: m.mcp, usage: m.MCP_USAGE };
  },
  faults: async () => {
    const m = await import('./faults.js');
    return { run: m.faultsCommand, usage: m.FAULTS_USAGE };
  },
  verify: async () => {
    const m = await import('./verify.js');
    return { run: m.verifyCommand, usage: m.VERIFY_USAGE };
  },
  'check-receiver': async () => {
    const m = await import('./check-receiver.js');
    return { run: m.checkReceiver, usage: m.CHECK_RECEIVER_USAGE };
  },
  coverage: async () => {
    const m = await import('./coverage.js');
    return { run: m.coverage, usage: m.COVERAGE_USAGE };
  },
};
// The other number reads as naturally.
COMMANDS.workspace = COMMANDS.workspaces!;
COMMANDS.checkpoints = COMMANDS.checkpoint!;

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
  '--webhook-ca',
  '--url',
  '--forward-to',
  '--events',
  '--merchant',
  '--env',
  '--out',
  '--junit',
  '--workspace',
  '--name',
  '--from',
  '--start',
  '--import',
  '--status',
  '--retry-after',
  '--latency',
  '--method',
  '--path',
  '--rate',
  '--count',
  '--id',
  '--file',
  '--query',
  '--body',
  '--since',
  '--at-least',
  '--at-most',
  '--secret',
  '--sandbox',
  '--effects-url',
  '--coverage',
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
  if (argv.includes('--version') || argv.includes('-v')) {
    const { VERSION } = await import('../version.js');
    process.stdout.write(`svc-sandbox ${VERSION}\n`);
    return;
  }
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

  // Before anything loads: no major GC can have freed those maps yet (server/runtime/tick-shape.ts).
  holdTickShape();
  // Loaded only now, so --help and usage errors answer without loading the server.
  const { createSandbox } = await import('../sandbox.js');
  let webhookCa: string[] | undefined;
  if (options.webhookCa !== undefined) {
    const { readCaBundle } = await import('../webhooks/trust.js');
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
      publicUrls: { test: options.publicUrl, production: publicProdUrl(options, options.prodPort) },
      allowedHosts: options.allowHosts,
      allowRemoteControl: options.allowRemoteControl,
      controlToken: options.controlToken,
      webhookCa,
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
  if (options.demo) {
    const demo = await (await import('./demo.js')).buildDemo(
      options.publicUrl === undefined ? urls : listenerUrls(sandbox, options.host),
      { fresh: options.fresh, controlToken: options.controlToken, seed: options.seed },
    );
    // A dashboard opened at `/` with no workspace in mind opens on the demo.
    if (demo) sandbox.workspaces.openOn(demo.workspace.id);
    if (demo)
      process.stdout.write(
        `svc-sandbox demo dashboard=${demoDashboard(urls.dashboard, demo.workspace.name)}\n`,
      );
  }
}

/** The dashboard opened on a workspace by name (`?workspace=`): the link outlives a --fresh rebuild. */
function demoDashboard(dashboard: string, workspace: string): string {
  const url = new URL(dashboard);
  url.searchParams.set('workspace', workspace);
  return url.href;
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

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) await main(process.argv.slice(2));
