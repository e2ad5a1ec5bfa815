import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type WorkspaceRecord, WorkspaceRegistry } from '../../server/workspaces/registry.js';

// The list of lasting workspaces on disk: rewritten (a new file, renamed over the old one) when the
// list changes, and left alone when it does not, as when an ephemeral workspace comes or goes.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const record = (id: string, ephemeral = false): WorkspaceRecord => ({
  id,
  name: id,
  created_at: '2026-01-01T00:00:00.000Z',
  seed: null,
  ephemeral,
  clock: null,
  from: null,
  checkpoints: [],
});

describe('WorkspaceRegistry', () => {
  it('writes the lasting workspaces, and nothing when only ephemeral ones changed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'registry-'));
    dirs.push(dir);
    const file = join(dir, 'workspaces.json');
    const registry = new WorkspaceRegistry(dir);

    registry.save([record('ws_a')]);
    const first = statSync(file).ino;
    registry.save([record('ws_a'), record('ws_e', true)]);
    registry.save([record('ws_a')]);
    // Not replaced: every write is a new file renamed over the old one.
    expect(statSync(file).ino).toBe(first);

    registry.save([record('ws_a'), record('ws_b')]);
    expect(statSync(file).ino).not.toBe(first);
    const written = JSON.parse(readFileSync(file, 'utf8')) as { workspaces: WorkspaceRecord[] };
    expect(written.workspaces.map((w) => w.id)).toEqual(['ws_a', 'ws_b']);

    // A registry opened on the same folder knows what the file holds: the same list writes nothing.
    const reopened = new WorkspaceRegistry(dir);
    expect(reopened.load().map((w) => w.id)).toEqual(['ws_a', 'ws_b']);
    const second = statSync(file).ino;
    reopened.save([record('ws_a'), record('ws_b'), record('ws_f', true)]);
    expect(statSync(file).ino).toBe(second);
    reopened.save([record('ws_a')]);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { workspaces: unknown[] }).workspaces).toHaveLength(1);
  });
});
