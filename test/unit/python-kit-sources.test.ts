import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type OperationId, operation } from '../../server/contract/call.js';
import { operations } from '../../server/contract/operations.js';
import { ROOT } from '../helpers/cli.js';

/**
 * What the Python kit (clients/python) keeps in step with the rest of the repository, checked
 * without Python: its operation table, and the README's example test. The kit itself runs in
 * test/integration/python/python-kit.test.ts.
 */

/**
 * The kit calls the sandbox by operationId, like every client here (server/contract/call.ts): its
 * table of methods and paths is the operation table rendered as Python, compared with the file.
 * `npx vitest run test/unit/python-kit-sources.test.ts --update` rewrites it after `npm run operations`.
 */
function renderPythonOperations(): string {
  const rows = Object.entries(operations)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id]) => {
      const { method, path } = operation(id as OperationId);
      return `    ${JSON.stringify(id)}: (${JSON.stringify(method)}, ${JSON.stringify(path)}),`;
    });
  return [
    "# The operation table (server/contract/operations.ts) for Python: each operation's method and path",
    '# by its operationId. Generated, do not edit: `npx vitest run test/unit/python-kit-sources.test.ts',
    '# --update` rewrites it, and that test fails while this file differs from the table.',
    'from __future__ import annotations',
    '',
    'from typing import Final',
    '',
    'OPERATIONS: Final[dict[str, tuple[str, str]]] = {',
    ...rows,
    '}',
    '',
  ].join('\n');
}

const EXAMPLE = 'clients/python/example/tests/test_partial_checkout.py';

/** The fenced block right after the README line that names `file`. */
function readmeBlock(readme: string, file: string): string | undefined {
  const lines = readme.split('\n');
  const named = lines.findIndex((line) => line.startsWith(`\`${file}\``));
  if (named === -1) return undefined;
  const open = lines.findIndex((line, i) => i > named && line.startsWith('```'));
  const close = lines.findIndex((line, i) => i > open && line === '```');
  return `${lines.slice(open + 1, close).join('\n')}\n`;
}

describe("the Python kit's sources kept in step", () => {
  it('its operation table is server/contract/operations.ts, method and path by operationId', async () => {
    expect(Object.keys(operations).length).toBeGreaterThan(150);
    await expect(renderPythonOperations()).toMatchFileSnapshot(
      '../../clients/python/src/svc_sandbox/_operations.py',
    );
  });

  it("the README's example test is the file CI runs", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = readmeBlock(readme, EXAMPLE);
    expect(block, `README.md names ${EXAMPLE} above its example`).toBeDefined();
    expect(block).toBe(readFileSync(join(ROOT, EXAMPLE), 'utf8'));
  });
});
