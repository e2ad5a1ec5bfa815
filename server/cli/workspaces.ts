import { existsSync, readFileSync } from 'node:fs';
import type { ImportResult } from '../contract/transfer.js';
import { type CreateWorkspaceBody, WORKSPACE_HEADER, type Workspace } from '../contract/workspaces.js';
import { clientFor, resolved, type SandboxClient } from './client.js';
import { formatOffset } from './clock.js';
import { CliFailure, COMMON_HELP, json, noExtra, out, parse, UsageError } from './common.js';
import { transferRequest } from './transfer.js';

export const WORKSPACES_USAGE = `Usage: svc-sandbox workspaces <create | list | delete <id>> [options]

Workspaces are isolated worlds in one sandbox: each has its own merchants, keys, clock, webhook
queue, request log and checkpoints. Client commands act in one with --workspace <id or name> (or
$SVC_SANDBOX_WORKSPACE); without it, in the default workspace.

  workspaces create         make a workspace; prints its id
    --name <name>           its name (unique; usable wherever an id is)
    --seed <text>           deterministic ids, keys and addresses
    --from <id>[:<checkpoint>]
                            a copy of that workspace as it is now, or of one of its checkpoints
    --ephemeral             kept in memory only: gone when the sandbox stops
    --start <time>          where its clock starts (ISO 8601, e.g. 2026-01-01T00:00:00Z)
    --frozen                its clock stands still until advanced
    --import <bundle>       fill it with a bundle (svc-sandbox export): its data and clock
  workspaces list           one line per workspace: id, name, clock, checkpoints
  workspaces delete <id>    delete a workspace (an id or a name) and everything in it

Options:
${COMMON_HELP}
Examples:
  WS=$(svc-sandbox workspaces create --ephemeral --frozen --json | jq -r .id)
  svc-sandbox merchants create Acme --workspace "$WS"
  svc-sandbox workspaces create --name "before refund" --from qa:checkout-paid
  svc-sandbox workspaces create --name bug-1234 --import bug-1234.svcbundle
`;

const OPTIONS = {
  name: { type: 'string' },
  seed: { type: 'string' },
  from: { type: 'string' },
  ephemeral: { type: 'boolean' },
  start: { type: 'string' },
  frozen: { type: 'boolean' },
  import: { type: 'string' },
} as const;

/** `ID` or `ID:CHECKPOINT`; a checkpoint name holds no colon, so the last one splits them. */
export function parseFrom(text: string): NonNullable<CreateWorkspaceBody['from']> {
  const colon = text.lastIndexOf(':');
  const workspace = colon === -1 ? text : text.slice(0, colon);
  const checkpoint = colon === -1 ? undefined : text.slice(colon + 1);
  if (workspace === '') throw new UsageError(`--from needs a workspace id or name, got ${text}`);
  if (checkpoint === '') throw new UsageError(`--from ${text}: the checkpoint name after : is empty`);
  return { workspace_id: workspace, ...(checkpoint === undefined ? {} : { checkpoint }) };
}

/** An ISO 8601 time with a date and a time of day, as the server takes it. */
export function parseStart(text: string): string {
  const ms = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text) || Number.isNaN(ms))
    throw new UsageError(`--start must be an ISO 8601 time such as 2026-01-01T00:00:00Z, got ${text}`);
  return new Date(ms).toISOString();
}

/** The create body the flags describe. */
export function createBody(values: Record<string, string | boolean | undefined>): CreateWorkspaceBody {
  const body: CreateWorkspaceBody = {};
  if (values.name !== undefined) {
    const name = String(values.name).trim();
    if (name === '' || name.length > 64) throw new UsageError('--name must be 1-64 characters');
    body.name = name;
  }
  if (values.seed !== undefined) {
    if (values.seed === '' || String(values.seed).length > 200)
      throw new UsageError('--seed must be 1-200 characters');
    body.seed = String(values.seed);
  }
  if (values.from !== undefined) body.from = parseFrom(String(values.from));
  if (values.ephemeral) body.ephemeral = true;
  if (values.start !== undefined || values.frozen) {
    body.clock = {
      ...(values.start === undefined ? {} : { start: parseStart(String(values.start)) }),
      ...(values.frozen ? { frozen: true } : {}),
    };
  }
  return body;
}

function readBundle(path: string): Buffer {
  if (!existsSync(path)) throw new CliFailure(`no bundle file at ${path}`);
  return readFileSync(path);
}

/** The id of a workspace named by an id or a name: ids as given, names looked up. */
async function idOf(client: SandboxClient, idOrName: string): Promise<string> {
  if (/^(default|ws_[0-9A-Za-z]{16})$/.test(idOrName)) return idOrName;
  return (await client.findWorkspace(idOrName)).id;
}

function clockText(w: Workspace): string {
  return `${w.clock.now} (${formatOffset(w.clock.offset_ms)}${w.clock.frozen ? ', frozen' : ''})`;
}

function kindText(w: Workspace): string {
  return [w.default ? 'default' : '', w.ephemeral ? 'ephemeral' : ''].filter(Boolean).join(', ');
}

export async function workspaces(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, OPTIONS);
  if (values.help) return 'help';
  const action = positionals[1];
  const createOnly = ['name', 'seed', 'from', 'ephemeral', 'start', 'frozen', 'import'].filter(
    (flag) => values[flag] !== undefined,
  );
  if (action !== 'create' && createOnly.length > 0)
    throw new UsageError(`--${createOnly[0]} is an option of workspaces create`);
  // The --workspace flag scopes commands run inside a workspace; these act on the sandbox's list.
  const client = clientFor(values);
  const sandbox = client.in(undefined);

  if (action === 'create') {
    noExtra(positionals, 2);
    const body = createBody(values);
    const bundlePath = values.import as string | undefined;
    if (bundlePath !== undefined && body.from)
      throw new UsageError('give --from or --import, not both (each fills the new workspace)');
    const bundle = bundlePath === undefined ? undefined : readBundle(bundlePath);
    if (body.from) body.from.workspace_id = await idOf(sandbox, body.from.workspace_id);
    let created = await sandbox.call('sandboxCreateWorkspace', { body });
    let reissued: ImportResult['reissued_keys'] = [];
    if (bundle) {
      try {
        const answer = await transferRequest(sandbox.baseUrl, resolved('sandboxImportWorkspace'), bundle, {
          [WORKSPACE_HEADER]: created.id,
        });
        reissued = (JSON.parse(answer.toString('utf8')) as ImportResult).reissued_keys;
      } catch (error) {
        // A bundle that did not go in leaves no half-made workspace behind.
        await sandbox.call('sandboxDeleteWorkspace', { params: { id: created.id } }).catch(() => {});
        throw error;
      }
      created = await sandbox.call('sandboxGetWorkspace', { params: { id: created.id } });
    }
    if (values.json) {
      json(bundle ? { ...created, reissued_keys: reissued } : created);
      return 0;
    }
    out(`workspace  ${created.id}  ${created.name}${created.ephemeral ? '  (ephemeral)' : ''}`);
    out(`clock      ${clockText(created)}`);
    if (created.from)
      out(
        `from       ${created.from.workspace_id}${created.from.checkpoint === null ? '' : `, checkpoint ${created.from.checkpoint}`}`,
      );
    out(`use it:    --workspace ${created.id}  (or SVC_SANDBOX_WORKSPACE=${created.id})`);
    for (const line of reissuedLines(reissued)) out(line);
    return 0;
  }
  if (action === 'list') {
    noExtra(positionals, 2);
    const list = await sandbox.workspaces();
    if (values.json) {
      json(list);
      return 0;
    }
    // The one this shell's commands act in: --workspace / $SVC_SANDBOX_WORKSPACE, else the default.
    const current = client.workspace?.toLowerCase();
    const isCurrent = (w: Workspace) =>
      current === undefined ? w.default : w.id === client.workspace || w.name.toLowerCase() === current;
    const nameWidth = Math.max(4, ...list.map((w) => w.name.length));
    const clockWidth = Math.max(5, ...list.map((w) => clockText(w).length));
    out(
      `  ${'ID'.padEnd(19)}  ${'NAME'.padEnd(nameWidth)}  ${'CLOCK'.padEnd(clockWidth)}  CHECKPOINTS  KIND`,
    );
    for (const w of list)
      out(
        `${isCurrent(w) ? '*' : ' '} ${w.id.padEnd(19)}  ${w.name.padEnd(nameWidth)}  ${clockText(w).padEnd(clockWidth)}  ${String(w.checkpoints).padEnd(11)}  ${kindText(w)}`.trimEnd(),
      );
    return 0;
  }
  if (action === 'delete') {
    const target = positionals[2];
    if (target === undefined) throw new UsageError('workspaces delete needs a workspace id or name');
    noExtra(positionals, 3);
    const id = await idOf(sandbox, target);
    if (id === 'default') throw new UsageError('the default workspace cannot be deleted (reset empties it)');
    await sandbox.call('sandboxDeleteWorkspace', { params: { id } });
    if (values.json) json({ deleted: id });
    else out(`deleted workspace ${id}${id === target ? '' : ` (${target})`}`);
    return 0;
  }
  throw new UsageError(
    action === undefined
      ? 'missing subcommand: workspaces create|list|delete'
      : `unknown subcommand: workspaces ${action}`,
  );
}

/** The new keys an import gave (its bundle's keys were another workspace's), one line each. */
export function reissuedLines(reissued: ImportResult['reissued_keys']): string[] {
  if (reissued.length === 0) return [];
  return [
    `new keys:  the bundle's keys are held by another workspace of this sandbox, so these merchants got new ones (the old keys act there):`,
    ...reissued.map((r) => `           merchant ${r.merchant_id}  key ${r.key}`),
  ];
}
