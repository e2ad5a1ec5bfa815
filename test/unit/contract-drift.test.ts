import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
// Inside the repository (git-ignored), so the copy resolves react, zustand and typebox from node_modules.
const probe = join(root, '.tmp', `contract-drift-${process.pid}`);

/** Copies the renderer, the contract and the shared format, applies each edit to its contract file, typechecks the renderer. */
function typecheckWith(edits: Record<string, (source: string) => string>) {
  rmSync(probe, { recursive: true, force: true });
  mkdirSync(join(probe, 'server'), { recursive: true });
  cpSync(join(root, 'renderer'), join(probe, 'renderer'), { recursive: true });
  cpSync(join(root, 'server', 'contract'), join(probe, 'server', 'contract'), { recursive: true });
  // The one other server folder the renderer may import: the shared date format.
  cpSync(join(root, 'server', 'format'), join(probe, 'server', 'format'), { recursive: true });
  for (const config of ['tsconfig.base.json', 'tsconfig.web.json'])
    cpSync(join(root, config), join(probe, config));
  for (const [file, edit] of Object.entries(edits)) {
    const target = join(probe, 'server', 'contract', file);
    const before = readFileSync(target, 'utf8');
    const after = edit(before);
    if (after === before) throw new Error(`the edit did not change ${file}`);
    writeFileSync(target, after);
  }
  const run = spawnSync(process.execPath, [tsc, '-p', join(probe, 'tsconfig.web.json'), '--noEmit'], {
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

afterAll(() => rmSync(probe, { recursive: true, force: true }));

/** The two drifts, made in one copy and checked in one typecheck (each costs seconds on its own). */
const EDITS = {
  'checkouts.ts': (s: string) => s.replace('hosted_url: Type.String()', 'hosted_url2: Type.String()'),
  'events.ts': (s: string) =>
    s.replace(
      "'deposit.received': DepositReceivedData,",
      "'deposit.received': DepositReceivedData,\n  'payout.reversed': Payout,",
    ),
};
let drifted: ReturnType<typeof typecheckWith> | undefined;
const typecheckDrifted = () => {
  drifted ??= typecheckWith(EDITS);
  return drifted;
};

/** The first line of each error tsc reports (a message may go on over more lines). */
const errorLines = (output: string) => output.split('\n').filter((line) => /error TS\d+/.test(line));

/**
 * The dashboard's types are the contract's (type-only imports): changing a field of a shape the
 * dashboard uses must fail the renderer's typecheck, so the two can never drift apart silently.
 */
describe('the renderer typechecks against the contract', () => {
  it('the copy fails only where the two drifts reach (the probe itself is sound)', {
    timeout: 60_000,
  }, () => {
    const errors = errorLines(typecheckDrifted().output);
    expect(errors.length).toBeGreaterThan(0);
    // An error names a drift, or sits on the line of one that does (tsc's follow-on errors). A copy
    // missing a folder or a config would fail elsewhere too (a module not found, a type lost).
    const names = (line: string) => /hosted_url|payout\.reversed/.test(line);
    const at = (line: string) => /^(.*?\(\d+),\d+\)/.exec(line)?.[1] ?? line;
    const reached = new Set(errors.filter(names).map(at));
    expect(errors.filter((line) => !names(line) && !reached.has(at(line)))).toEqual([]);
  });

  it('renaming a checkout field breaks the renderer', { timeout: 60_000 }, () => {
    const result = typecheckDrifted();
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/renderer\/pages\/Checkouts\/CheckoutDetail\.tsx.*hosted_url/);
  });

  it('an event type added to the contract but not to the dashboard breaks the renderer', {
    timeout: 60_000,
  }, () => {
    const result = typecheckDrifted();
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/renderer\/pages\/Webhooks\/events\.ts/);
  });
});
