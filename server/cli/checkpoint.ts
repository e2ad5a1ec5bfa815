import type { Checkpoint } from '../contract/workspaces.js';
import { clientFor, listOf } from './client.js';
import { COMMON_HELP, json, noExtra, out, parse, UsageError } from './common.js';

export const CHECKPOINT_USAGE = `Usage: svc-sandbox checkpoint <save <name> | restore <name> | list | delete <name>> [options]

A checkpoint is a saved moment of a workspace: its data, clock and settings. Restore brings that
moment back (keep trying branches from "checkout paid, before the refund"); a new workspace can
start from one too (svc-sandbox workspaces create --from <workspace>:<checkpoint>).

  checkpoint save <name>     save the workspace as it is now (letters, digits, space . _ -);
                             --restore-at now: it comes back at the real current time, every stored
                             time moved as much (a demo that reads like today whenever restored)
  checkpoint restore <name>  bring back the data, clock and settings of that moment
  checkpoint list            the workspace's checkpoints: name, sandbox time, size
  checkpoint delete <name>   delete one

Options:
${COMMON_HELP}
Example:
  svc-sandbox checkpoint save paid --workspace qa
  svc-sandbox checkpoint save demo --restore-at now --workspace Demo
  svc-sandbox checkpoint restore paid --workspace qa
`;

const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]*$/;

function checkpointName(action: string, name: string | undefined): string {
  if (name === undefined) throw new UsageError(`checkpoint ${action} needs a checkpoint name`);
  if (name.length > 64 || !NAME.test(name))
    throw new UsageError(
      `checkpoint names are 1-64 letters, digits, spaces, dots, dashes and underscores, starting with a letter or digit; got ${JSON.stringify(name)}`,
    );
  return name;
}

const kib = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KiB`;

export async function checkpoint(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, { 'restore-at': { type: 'string' } });
  if (values.help) return 'help';
  const action = positionals[1];
  const client = clientFor(values);
  const where = client.workspace === undefined ? 'the default workspace' : `workspace ${client.workspace}`;

  if (action === 'save') {
    const name = checkpointName(action, positionals[2]);
    noExtra(positionals, 3);
    const restoreAt = values['restore-at'];
    if (restoreAt !== undefined && restoreAt !== 'saved' && restoreAt !== 'now')
      throw new UsageError(`--restore-at is saved (the default) or now; got ${JSON.stringify(restoreAt)}`);
    const saved = await client.call('sandboxSaveCheckpoint', {
      body: { name, ...(restoreAt === undefined ? {} : { restore_at: restoreAt }) },
    });
    if (values.json) json(saved);
    else
      out(
        `saved checkpoint ${saved.name} of ${where} at sandbox time ${saved.at} (${kib(saved.size_bytes)})`,
      );
    return 0;
  }
  if (action === 'restore') {
    const name = checkpointName(action, positionals[2]);
    noExtra(positionals, 3);
    if (values['restore-at'] !== undefined) throw new UsageError('--restore-at goes with checkpoint save');
    const restored = await client.call('sandboxRestoreCheckpoint', { params: { name } });
    if (values.json) json(restored);
    else
      out(
        `restored checkpoint ${restored.restored} in ${where}: clock ${restored.workspace.clock.now}${restored.workspace.clock.frozen ? ' (frozen)' : ''}`,
      );
    return 0;
  }
  if (action === 'list') {
    noExtra(positionals, 2);
    const list = listOf<Checkpoint>(await client.call('sandboxListCheckpoints'));
    if (values.json) {
      json(list);
      return 0;
    }
    if (list.length === 0) {
      out(`no checkpoints in ${where} (save one with: svc-sandbox checkpoint save <name>)`);
      return 0;
    }
    const width = Math.max(4, ...list.map((c) => c.name.length));
    out(`${'NAME'.padEnd(width)}  ${'SANDBOX TIME'.padEnd(24)}  ${'SAVED'.padEnd(24)}  SIZE`);
    for (const c of list)
      out(`${c.name.padEnd(width)}  ${c.at.padEnd(24)}  ${c.created_at.padEnd(24)}  ${kib(c.size_bytes)}`);
    return 0;
  }
  if (action === 'delete') {
    const name = checkpointName(action, positionals[2]);
    noExtra(positionals, 3);
    await client.call('sandboxDeleteCheckpoint', { params: { name } });
    if (values.json) json({ deleted: name });
    else out(`deleted checkpoint ${name} of ${where}`);
    return 0;
  }
  throw new UsageError(
    action === undefined
      ? 'missing subcommand: checkpoint save|restore|list|delete'
      : `unknown subcommand: checkpoint ${action}`,
  );
}
