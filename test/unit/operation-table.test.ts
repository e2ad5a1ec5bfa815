import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DeclaredOperation } from '../../server/http/openapi.js';
import { type ContractModule, renderOperationTable } from '../../server/http/operation-table.js';
import { createSandbox } from '../../server/sandbox.js';
import { ROOT } from '../helpers/cli.js';

/**
 * The operation table (server/contract/operations.ts) is what the route definitions declare now:
 * rendered from a sandbox's routes and compared with the file. `npm run operations` rewrites it.
 */
describe('the operation table', () => {
  it('is the routes as declared (npm run operations writes it)', async () => {
    const declared: DeclaredOperation[] = [];
    const sandbox = await createSandbox({ onOperation: (operation) => declared.push(operation) });
    await sandbox.close();
    const dir = join(ROOT, 'server/contract');
    const modules: ContractModule[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      modules.push({ file, exports: (await import(join(dir, file))) as Record<string, unknown> });
    }
    expect(declared.length).toBeGreaterThan(150);
    await expect(renderOperationTable(declared, modules)).toMatchFileSnapshot(
      '../../server/contract/operations.ts',
    );
  });
});
