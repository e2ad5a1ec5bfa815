import type { SandboxContext } from '../context.js';
import type { WorkspaceTransfer } from './transfer.js';

/**
 * A workspace as one request sees it: the context mounted when the request started, for the whole
 * request. A restore, reset or delete of the workspace waits for the requests bound to its context
 * (server/workspaces/workspace.ts), so no request reads two contexts, or one closed under it.
 */
export interface BoundWorkspace {
  readonly id: string;
  /** the path prefix of its own addresses ('' for the default workspace) */
  readonly prefix: string;
  readonly ctx: SandboxContext;
  readonly transfer: WorkspaceTransfer;
  /**
   * The request no longer holds its context open (it is done with it, or is the restore, reset or
   * delete that replaces it and would otherwise wait for itself). Called again, does nothing.
   */
  leave(): void;
  /**
   * The workspace's context now, unbound (a restore may have replaced the request's own): for a
   * live stream, which outlives any one context and follows its workspace.
   */
  successor(): BoundWorkspace | null;
}

/** One context of a workspace, and the requests bound to it. */
export interface Mount {
  readonly ctx: SandboxContext;
  readonly transfer: WorkspaceTransfer;
  /** requests bound to it and not yet done */
  inflight: number;
  /** called when `inflight` falls to 0, while a replacement waits for that */
  drained: (() => void) | null;
}

/** What a Binding needs of its workspace. */
export interface BindingOwner {
  readonly id: string;
  readonly prefix: string;
  release(mount: Mount): void;
  successor(): BoundWorkspace | null;
}

export class Binding implements BoundWorkspace {
  readonly id: string;
  readonly prefix: string;
  readonly ctx: SandboxContext;
  readonly transfer: WorkspaceTransfer;
  private held: boolean;

  constructor(
    private readonly owner: BindingOwner,
    private readonly mount: Mount,
    counted: boolean,
  ) {
    this.id = owner.id;
    this.prefix = owner.prefix;
    this.ctx = mount.ctx;
    this.transfer = mount.transfer;
    this.held = counted;
    if (counted) mount.inflight++;
  }

  leave(): void {
    if (!this.held) return;
    this.held = false;
    this.owner.release(this.mount);
  }

  successor(): BoundWorkspace | null {
    return this.owner.successor();
  }
}
