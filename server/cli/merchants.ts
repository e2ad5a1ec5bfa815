import { clientFor } from './client.js';
import { COMMON_HELP, json, noExtra, out, parse, UsageError } from './common.js';

export const MERCHANTS_USAGE = `Usage: svc-sandbox merchants <create <name> | list> [options]

  merchants create <name>   create a merchant; prints its id and its owner API key
  merchants list            one line per merchant: id, KYB status, name

Options:
${COMMON_HELP}
Example:
  KEY=$(svc-sandbox merchants create "Acme" --json | jq -r .api_key.key)
`;

export async function merchants(argv: string[]): Promise<number | 'help'> {
  const { values, positionals } = parse(argv, {});
  if (values.help) return 'help';
  const action = positionals[1];
  if (action === 'create') {
    const name = positionals[2];
    if (name === undefined || name.trim() === '') throw new UsageError('merchants create needs a name');
    noExtra(positionals, 3);
    const client = clientFor(values);
    const created = await client.call('sandboxCreateMerchant', { body: { name } });
    if (values.json) json(created);
    else {
      out(`merchant  ${created.merchant.id}  ${created.merchant.name}`);
      out(`key       ${created.api_key.key}  (${created.api_key.role})`);
    }
    return 0;
  }
  if (action === 'list') {
    noExtra(positionals, 2);
    const client = clientFor(values);
    const list = await client.call('sandboxListMerchants');
    if (values.json) json(list);
    else if (list.length === 0) out('no merchants (create one with: svc-sandbox merchants create <name>)');
    else for (const m of list) out(`${m.id}  ${m.kyb_status.padEnd(9)}  ${m.name}`);
    return 0;
  }
  throw new UsageError(
    action === undefined
      ? 'missing subcommand: merchants create|list'
      : `unknown subcommand: merchants ${action}`,
  );
}
