import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/**
 * The clients of the API (the dashboard, the CLI and its MCP server, `svc-sandbox/testing`, the
 * scenario runner) call it by operation (server/contract/call.ts), so no client spells a path of
 * its own: a route that moves moves everywhere with the operation table. A path literal is a quote
 * followed by `/sandbox/<something>` or `/v1/<something>`; prose that names an endpoint for a
 * reader (usage text, comments) is not one, and neither is a prefix test (`startsWith('/v1/')`).
 * The routes that serve documents, not operations, are named beside the table (`documents`).
 */
const CLIENTS = ['renderer', 'server/cli', 'server/testing', 'server/scenarios'];
const PATH_LITERAL = /['"`]\/(sandbox|v1)\/[A-Za-z0-9{$_-]/;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

describe('client code', () => {
  it('spells no API path of its own: it calls by operationId', () => {
    const found: string[] = [];
    for (const file of CLIENTS.flatMap((dir) => sources(join(ROOT, dir)))) {
      const name = relative(ROOT, file);
      for (const [i, line] of readFileSync(file, 'utf8').split('\n').entries()) {
        const code = line.trim();
        if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) continue;
        if (PATH_LITERAL.test(code)) found.push(`${name}:${i + 1}: ${code}`);
      }
    }
    expect(found).toEqual([]);
  });
});
