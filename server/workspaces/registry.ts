import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClockStart } from '../clock.js';

export interface CheckpointRecord {
  name: string;
  /** the workspace's sandbox time when saved (ms) */
  at: number;
  /** whether its clock stood still then */
  frozen: boolean;
  /** real time of saving (ISO) */
  created_at: string;
  size_bytes: number;
  /**
   * `now`: a restore (or a fork) brings the moment back at the real current time, every stored time
   * moved by as much (the demo's); absent: at its own sandbox time.
   */
  restore_at?: 'now';
}

export interface WorkspaceRecord {
  id: string;
  name: string;
  created_at: string;
  seed: string | null;
  ephemeral: boolean;
  /** where its clock starts (again after a reset), if not at real time */
  clock: ClockStart | null;
  from: { workspace_id: string; checkpoint: string | null } | null;
  checkpoints: CheckpointRecord[];
}

/**
 * The list of a sandbox's lasting workspaces (and their checkpoints), kept beside the default
 * workspace's database as one small JSON file, replaced whole on every change (write, then
 * rename: a crash leaves the old list or the new one). Ephemeral workspaces are never written.
 * A `:memory:` sandbox keeps the list in memory only.
 */
export class WorkspaceRegistry {
  private readonly file: string | null;
  /** What the file holds (as last read or written): a change that leaves the list as it was writes nothing. */
  private written: string | null = null;

  constructor(private readonly dir: string | null) {
    this.file = dir === null ? null : join(dir, 'workspaces.json');
  }

  load(): WorkspaceRecord[] {
    if (this.file === null) return [];
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return [];
    }
    this.written = text;
    const parsed = JSON.parse(text) as { workspaces?: WorkspaceRecord[] };
    return Array.isArray(parsed.workspaces) ? parsed.workspaces : [];
  }

  /**
   * Writes the list of lasting workspaces, unless the file already holds it: an ephemeral
   * workspace made or deleted (a test's) leaves it as it was, and costs no write.
   */
  save(records: readonly WorkspaceRecord[]): void {
    if (this.file === null || this.dir === null) return;
    const lasting = records.filter((record) => !record.ephemeral);
    const text = `${JSON.stringify({ version: 1, workspaces: lasting }, null, 2)}\n`;
    if (text === this.written) return;
    mkdirSync(this.dir, { recursive: true });
    const temporary = `${this.file}.tmp`;
    writeFileSync(temporary, text);
    renameSync(temporary, this.file);
    this.written = text;
  }
}
