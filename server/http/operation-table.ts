import type { DeclaredOperation } from './openapi.js';

/**
 * Writes the operation table (server/contract/operations.ts) from the route definitions: each named
 * route's method, path and summary, and the contract schemas of its path
 * parameters, query, body and answer, as types. Clients call the API through it by operationId,
 * never by a path of their own. `test/unit/operation-table.test.ts` renders it from the app's
 * routes and fails when the file differs; `npm run operations` writes it.
 */

/** A contract module and what it exports (`checkouts.ts` → its schemas). */
export interface ContractModule {
  /** the file name beside operations.ts, `checkouts.ts` */
  file: string;
  exports: Record<string, unknown>;
}

export const TABLE_FILE = 'operations.ts';

const HEADER = `// The operation table: every operation of the API by its operationId, made from the route
// definitions (server/http/operation-table.ts). Do not edit: change the route, then run
// \`npm run operations\`; a test fails while this file is behind the routes.
//
// \`operations\` holds what a client needs at run time, and no more (the renderer bundles it): each
// operation's \`METHOD /path\`, read through \`operation(id)\` (./call.ts);
// \`OperationTypes\` each one's summary and the contract's types of its parameters, query, body and
// answer.
`;

/** The status whose answer a client gets on success: the lowest 2xx the route declares. */
function successStatus(response: Record<string, unknown>): string | undefined {
  return Object.keys(response)
    .filter((status) => /^2\d\d$/.test(status))
    .sort()[0];
}

/** Renders the table; throws naming every schema that is no export of a contract module. */
export function renderOperationTable(
  declared: readonly DeclaredOperation[],
  modules: ContractModule[],
): string {
  const names = new Map<unknown, { file: string; name: string }>();
  for (const module of [...modules].sort((a, b) => a.file.localeCompare(b.file))) {
    if (module.file === TABLE_FILE || module.file === 'index.ts') continue;
    for (const [name, value] of Object.entries(module.exports)) {
      if (value !== null && typeof value === 'object' && !names.has(value))
        names.set(value, { file: module.file, name });
    }
  }
  const imports = new Map<string, Set<string>>();
  const unnamed: string[] = [];
  const typeOf = (schema: unknown, what: string, operationId: string): string => {
    if (schema === undefined) return 'undefined';
    // A body that is no JSON (a bundle file, a webhook kept as sent): bytes, typed by its client.
    if ((schema as { content?: unknown }).content !== undefined) return 'unknown';
    const found = names.get(schema);
    // A list of a named schema (`Type.Array(Checkout)` in the route).
    const items = (schema as { type?: unknown; items?: unknown }).items;
    if (!found && (schema as { type?: unknown }).type === 'array' && names.has(items))
      return `${typeOf(items, what, operationId)}[]`;
    if (!found) {
      unnamed.push(`${operationId} ${what}`);
      return 'unknown';
    }
    const set = imports.get(found.file) ?? new Set<string>();
    set.add(found.name);
    imports.set(found.file, set);
    return `Static<typeof ${found.name}>`;
  };

  const operations = [...declared].sort((a, b) => a.operationId.localeCompare(b.operationId));
  const runtime: string[] = [];
  const types: string[] = [];
  for (const op of operations) {
    const summary = JSON.stringify(op.summary ?? op.operationId);
    runtime.push(`  ${op.operationId}: '${op.method} ${op.path}',`);
    const status = successStatus(op.response);
    const answer =
      status === undefined || status === '204'
        ? 'undefined'
        : typeOf(op.response[status], 'answer', op.operationId);
    types.push(
      `  ${op.operationId}: {\n` +
        `    summary: ${summary};\n` +
        `    params: ${typeOf(op.params, 'params', op.operationId)};\n` +
        `    query: ${typeOf(op.query, 'query', op.operationId)};\n` +
        `    body: ${typeOf(op.body, 'body', op.operationId)};\n` +
        `    answer: ${answer};\n` +
        '  };',
    );
  }
  if (unnamed.length > 0)
    throw new Error(
      `these route schemas are no export of a contract module (export them there):\n  ${unnamed.join('\n  ')}`,
    );

  const importLines = [...imports]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([file, set]) =>
        `import type { ${[...set].sort().join(', ')} } from './${file.replace(/\.ts$/, '.js')}';`,
    );
  return [
    HEADER,
    "import type { Static } from 'typebox';",
    ...importLines,
    '',
    "/** Each operation's method and path (`{name}` for each parameter), one string: `operation(id)` splits it. */",
    'export const operations = {',
    ...runtime,
    '} as const;',
    '',
    "/** Each operation's summary, and its contract types: path parameters, query, body, its answer on success. */",
    'export interface OperationTypes {',
    ...types,
    '}',
    '',
  ].join('\n');
}
