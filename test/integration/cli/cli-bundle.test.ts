import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../../server/db/migrations/index.js';
import { CLI, cliEnv, ensureBuilt, ROOT } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/sandbox.js';

// `npm run build:server` bundles the server into dist/server/cli.js (scripts/bundle-server.js): the
// package bin, `npm start` and the bench run that file. These check that it is a bundle, and that
// what the bundle moved still works: files found next to modules (the scenario library), TypeBox's
// compiler (taken from the bundle, not node_modules), the OpenAPI document, the package bin.
const CHUNKS = join(ROOT, 'dist/server/chunks');
const BIN = join(ROOT, 'bin/svc-sandbox.js');
const SCRIPT = join(ROOT, 'dist/server/sandbox.bundle.cjs');
const TEMPLATE = join(ROOT, 'dist/server/db/schema-template.db');
const READY = /^svc-sandbox ready test=(\S+) production=(\S+) dashboard=(\S+)$/;

beforeAll(
  () =>
    ensureBuilt(
      [CLI, CHUNKS, `${SCRIPT}.cache`, TEMPLATE, join(ROOT, 'dist/server/scenarios/library/demo.yaml')],
      ['npm', 'run', 'build:server', '--silent'],
    ),
  180_000,
);

/** A module's leading import statements (where a bundle puts all of its static imports). */
const STATIC_IMPORT = /^\s*import\s*(?:[^'"`;]*?\bfrom\s*)?(["'`])([^"'`]+)\1\s*;?/;
const DYNAMIC_IMPORT = /\bimport\((["'`])([^"'`]+)\1\)/g;

/** Every package the bundle's files import by name (`node:` built-ins aside), statically or not. */
function importedPackages(): Set<string> {
  const files = [
    CLI,
    ...readdirSync(CHUNKS)
      .filter((f) => f.endsWith('.js'))
      .map((f) => join(CHUNKS, f)),
  ];
  const specifiers: string[] = [];
  for (const file of files) {
    let code = readFileSync(file, 'utf8').replace(/^#![^\n]*\n/, '');
    for (let m = STATIC_IMPORT.exec(code); m; m = STATIC_IMPORT.exec(code)) {
      specifiers.push(m[2]!);
      code = code.slice(m[0].length);
    }
    for (const m of code.matchAll(DYNAMIC_IMPORT)) specifiers.push(m[2]!);
  }
  return new Set(specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('node:')));
}

describe('the bundled server (dist/server/cli.js)', () => {
  it('is one bundle: of the npm packages, only better-sqlite3 (a native addon) is imported by name', () => {
    const code = readFileSync(CLI, 'utf8');
    // (tsc's cli.js, were it there instead, would import ./cli/common.js and ./sandbox.js)
    expect(code).toMatch(/from\s*["']\.\/chunks\//);
    expect(code).not.toMatch(/["']\.\/sandbox\.js["']/);
    expect([...importedPackages()]).toEqual(['better-sqlite3']);
  });

  it('runs the server from one script with a V8 code cache that this Node accepts', () => {
    const script = readFileSync(SCRIPT, 'utf8');
    // The heavy packages are inside it, not required by name from node_modules.
    for (const name of ['fastify', 'typebox', 'typebox/compile', '@fastify/swagger', 'yaml', 'ajv'])
      expect(script, name).not.toMatch(new RegExp(`require\\((["'\`])${name}\\1\\)`));
    // Compiled as the loader compiles it (scripts/bundle-server.js: WRAP), by a Node without flags.
    const check = `const { readFileSync } = require('node:fs');
const { Script } = require('node:vm');
const file = ${JSON.stringify(SCRIPT)};
const script = new Script('(function (exports, require, module, __filename, __dirname) {\\n' + readFileSync(file, 'utf8') + '\\n})', { filename: file, lineOffset: -1, cachedData: readFileSync(file + '.cache') });
process.stdout.write(String(script.cachedDataRejected));`;
    const rejected = execFileSync(process.execPath, ['-e', check], {
      env: { ...cliEnv(), NODE_OPTIONS: '' },
      encoding: 'utf8',
    });
    expect(rejected).toBe('false');
  });

  it('starts from the package bin and answers: health, OpenAPI, the scenario library, validation', {
    timeout: 30_000,
  }, async () => {
    const dbPath = join(tempDir(), 'bundle.db');
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--prod-port', '0', '--db', dbPath], {
      cwd: ROOT,
      env: cliEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    try {
      const test = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ready line\nstderr: ${stderr}`)), 10_000);
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`exited ${code} before ready\nstderr: ${stderr}`));
        });
        createInterface({ input: child.stdout }).on('line', (line) => {
          const match = READY.exec(line);
          if (!match) return;
          clearTimeout(timer);
          resolve(match[1]!);
        });
      });

      const health = await fetch(`${test}/sandbox/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { status: string }).status).toBe('ok');

      const doc = (await (await fetch(`${test}/sandbox/openapi.json`)).json()) as {
        openapi: string;
        paths: Record<string, unknown>;
        webhooks: Record<string, unknown>;
      };
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.paths['/v1/checkouts']).toBeDefined();
      expect(Object.keys(doc.webhooks).length).toBeGreaterThan(0);

      // Read from dist/server/scenarios/library, beside tsc's scenarios/library.js, not the chunk.
      const demo = await fetch(`${test}/sandbox/scenarios/library/demo`);
      expect(demo.status).toBe(200);
      const { scenario } = (await demo.json()) as { scenario: string };
      expect(scenario).toBe(readFileSync(join(ROOT, 'server/scenarios/library/demo.yaml'), 'utf8'));

      const created = await fetch(`${test}/sandbox/merchants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bundle' }),
      });
      expect(created.status).toBe(200);
      const { api_key } = (await created.json()) as { api_key: { key: string } };
      const invalid = await fetch(`${test}/v1/checkouts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${api_key.key}` },
        body: JSON.stringify({ amount: 'twelve' }),
      });
      expect(invalid.status).toBe(422);
      expect(((await invalid.json()) as { error: unknown }).error).toBeDefined();
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    // The new database is the build's schema template (scripts/bundle-server.js), not migrated at
    // start: its migrations carry the times the build applied them.
    const applied = (file: string | Buffer) => {
      const db = new Database(file, { readonly: typeof file === 'string' });
      try {
        return db
          .prepare<[], { version: number; applied_at: string }>(
            'SELECT version, applied_at FROM schema_migrations ORDER BY version',
          )
          .all();
      } finally {
        db.close();
      }
    };
    const template = readFileSync(TEMPLATE);
    expect(applied(dbPath)).toEqual(applied(template));
    expect(applied(template).map((m) => m.version)).toEqual(migrations.map((m) => m.version));
    const code = await new Promise<number | null>((resolve) =>
      child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve),
    );
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });
});
