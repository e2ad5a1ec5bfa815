import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../server/sandbox.js';
import { afterEveryTest } from './cleanup.js';

/** A controllable real-time source: the sandbox clock adds its offset on top of this. */
export class ManualTime {
  constructor(public ms = Date.parse('2026-01-15T12:00:00.000Z')) {}
  now = (): number => this.ms;
  tick(ms: number): void {
    this.ms += ms;
  }
}

const open: Sandbox[] = [];
const dirs: string[] = [];

afterEveryTest(async () => {
  await Promise.all(open.splice(0).map((s) => s.close().catch(() => {})));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The workspace every test sandbox holds besides the default one (see testSandbox). */
export const BYSTANDER = 'Bystander';

/**
 * A sandbox closed automatically after the test. In-memory unless a dbPath is given. It holds a
 * second, ephemeral workspace (BYSTANDER) besides the default one, so every test runs the path a
 * sandbox of many workspaces runs; `sole: true` leaves it out (a test of the workspace list itself).
 */
export async function testSandbox(options: SandboxOptions & { sole?: boolean } = {}): Promise<Sandbox> {
  const { sole, ...rest } = options;
  const sandbox = await createSandbox({ ports: { test: 0, production: 0 }, ...rest });
  open.push(sandbox);
  if (!sole) await sandbox.workspaces.create({ name: BYSTANDER, ephemeral: true });
  return sandbox;
}

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sandbox-test-'));
  dirs.push(dir);
  return dir;
}

export interface Actor {
  merchantId: string;
  key: string;
  auth: { authorization: string };
}

/** Creates a merchant through the control API and returns its owner key. */
export async function createMerchant(sandbox: Sandbox, name = 'Acme'): Promise<Actor> {
  const res = await sandbox.apps.test.inject({
    method: 'POST',
    url: '/sandbox/merchants',
    payload: { name },
  });
  if (res.statusCode !== 200) throw new Error(`create merchant: ${res.statusCode} ${res.body}`);
  const body = res.json() as { merchant: { id: string }; api_key: { key: string } };
  return {
    merchantId: body.merchant.id,
    key: body.api_key.key,
    auth: { authorization: `Bearer ${body.api_key.key}` },
  };
}

/** An ISO timestamp `ms` after the sandbox's current time. */
export function inFuture(sandbox: Sandbox, ms = 3600_000): string {
  return new Date(sandbox.ctx.clock.now() + ms).toISOString();
}
