import { createServer } from 'node:net';
import { join } from 'node:path';
import { app } from 'electron';
import { favourMemory } from '../server/runtime/memory.js';
import { holdTickShape } from '../server/runtime/tick-shape.js';
import { createSandbox, type Sandbox, type Urls } from '../server/sandbox.js';
import { loadPreferences, webhookCaOf } from './preferences.js';

/** The desktop app prefers the documented addresses, so code pointed at :4010 keeps working. */
export const PREFERRED_PORTS = { test: 4010, production: 4011 } as const;
export const HOST = '127.0.0.1';

export type Ports = { test: number; production: number };

/**
 * Keep a preferred port when it is free; otherwise take any free one (0) rather than refuse to start,
 * e.g. while a headless `svc-sandbox serve` already holds 4010. The window follows whatever URL results.
 */
export function choosePorts(preferred: Ports, isFree: { test: boolean; production: boolean }): Ports {
  return {
    test: preferred.test === 0 || isFree.test ? preferred.test : 0,
    production: preferred.production === 0 || isFree.production ? preferred.production : 0,
  };
}

/** Whether a TCP port can be bound on the host right now. */
export function isPortFree(port: number, host = HOST): Promise<boolean> {
  if (port === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

export interface ServerHostOptions {
  /** Directory for the database; defaults to Electron's user-data dir. */
  userData?: string;
  /** Built dashboard directory (out/renderer next to out/main). */
  dashboardDir: string;
  /** Electron build of better-sqlite3; undefined uses the installed (Node) one. */
  nativeBinding?: string | undefined;
  ports?: Ports;
}

export interface ServerHost {
  sandbox: Sandbox;
  urls: Urls;
  /** The URL the window opens. */
  dashboardUrl: string;
  /** Origins the window may navigate within (both listeners serve the dashboard and hosted pages). */
  origins: string[];
  /** The webhook CA file of the preferences, and why it is not in use, if it is not. */
  webhookCa: { file: string | undefined; problem: string | undefined };
  close(): Promise<void>;
}

const isAddressInUse = (error: unknown) =>
  (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';

/** Starts the sandbox in this process: the same createSandbox the CLI and the tests use. */
export async function startServerHost(options: ServerHostOptions): Promise<ServerHost> {
  const userData = options.userData ?? app.getPath('userData');
  const preferred = options.ports ?? PREFERRED_PORTS;
  const { webhookCaFile } = loadPreferences(userData);
  const trust = webhookCaOf({ webhookCaFile });
  // The shell's main process is the sandbox's: the same memory profile and the same fast
  // process.nextTick as `svc-sandbox serve` (server/tick-shape.ts).
  favourMemory();
  holdTickShape();
  const start = async (ports: Ports): Promise<Sandbox> => {
    const sandbox = await createSandbox({
      dbPath: join(userData, 'svc-sandbox.db'),
      host: HOST,
      ports,
      dashboardDir: options.dashboardDir,
      nativeBinding: options.nativeBinding,
      webhookCa: trust.ca,
    });
    try {
      await sandbox.listen();
      return sandbox;
    } catch (error) {
      await sandbox.close().catch(() => {});
      throw error;
    }
  };

  const [testFree, productionFree] = await Promise.all([
    isPortFree(preferred.test),
    isPortFree(preferred.production),
  ]);
  let sandbox: Sandbox;
  try {
    sandbox = await start(choosePorts(preferred, { test: testFree, production: productionFree }));
  } catch (error) {
    // Another process took a port between the probe and the bind: fall back to free ports.
    if (!isAddressInUse(error)) throw error;
    sandbox = await start({ test: 0, production: 0 });
  }

  const urls = sandbox.urls();
  return {
    sandbox,
    urls,
    dashboardUrl: urls.dashboard,
    origins: [new URL(urls.test).origin, new URL(urls.production).origin],
    webhookCa: { file: webhookCaFile, problem: trust.problem },
    close: () => sandbox.close(),
  };
}
