import { createInterface } from 'node:readline/promises';
import { clientFor } from './client.js';
import { COMMON_HELP, json, noExtra, out, parse, UsageError } from './common.js';

export const RESET_USAGE = `Usage: svc-sandbox reset [--yes] [options]

Erases everything in the running sandbox (merchants, keys, resources, events, deliveries) and
starts from an empty workspace (POST /sandbox/reset). Asks first; without a terminal to ask on,
--yes is required.

Options:
  -y, --yes         do not ask
${COMMON_HELP}
Example:
  svc-sandbox reset --yes
`;

export async function reset(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, { yes: { type: 'boolean', short: 'y' } });
  if (values.help) return 'help';
  noExtra(positionals, 1);
  const client = clientFor(values);
  if (!values.yes) {
    if (!process.stdin.isTTY || !process.stdout.isTTY)
      throw new UsageError('reset erases everything: pass --yes to confirm (no terminal to ask on)');
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    const answer = await rl.question(`Erase everything in the sandbox at ${client.baseUrl}? [y/N] `);
    rl.close();
    if (!/^y(es)?$/i.test(answer.trim())) {
      out('not reset');
      return 1;
    }
  }
  const result = await client.call('sandboxReset');
  if (values.json) json(result);
  else out(`reset: the sandbox at ${client.baseUrl} is empty`);
  return 0;
}
