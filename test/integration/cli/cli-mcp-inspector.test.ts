import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { lint } from '../../../server/cli/mcp/schema.js';
import { TOOLS } from '../../../server/cli/mcp/tools.js';
import { CLI, cliEnv, ensureBuilt, ROOT } from '../../helpers/cli.js';
import { testSandbox } from '../../helpers/sandbox.js';

// The official MCP Inspector's CLI (the devDependency @modelcontextprotocol/inspector, 1.0.3: the
// last release whose engines accept Node 22.12) lists the built server's tools over stdio, as a
// client a developer would point at it. Its 2.x `--strict` schema check needs Node 22.19, so the
// same rules are applied here to what it listed (server/cli/mcp/schema.ts lint); 2.12's --strict
// gave 0 findings when this was written. Any warning on its stderr fails the test.

beforeAll(() => ensureBuilt([CLI], ['npm', 'run', 'build:server', '--silent']), 180_000);

const require = createRequire(import.meta.url);
const INSPECTOR = join(
  dirname(require.resolve('@modelcontextprotocol/inspector/package.json')),
  'cli/build/cli.js',
);

/** The 1.x launcher's own notice that 2.x exists: about the inspector, not about this server. */
const DEPRECATION = [
  /^⚠️ {2}@modelcontextprotocol\/inspector v1 is deprecated\.$/,
  /^ {4}Upgrade: {2}npx @modelcontextprotocol\/inspector@latest$/,
  /^ {4}v1 receives security fixes only\.$/,
];

function inspect(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [INSPECTOR, '--cli', process.execPath, CLI, ...args, '--method', 'tools/list'],
      { cwd: ROOT, env: cliEnv(), timeout: 60_000, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the MCP Inspector CLI against `svc-sandbox mcp --toolsets all`', () => {
  it('lists every tool, with no warning and 0 findings of the strict schema check', {
    timeout: 90_000,
  }, async () => {
    const sandbox = await testSandbox();
    const url = (await sandbox.listen()).test;
    const { code, stdout, stderr } = await inspect(['mcp', '--url', url, '--toolsets', 'all']);
    const warnings = stderr
      .split('\n')
      .map((line) => line.trimEnd())
      .filter((line) => line !== '' && !DEPRECATION.some((notice) => notice.test(line)));
    expect(warnings, stderr).toEqual([]);
    expect(code, stderr).toBe(0);
    const { tools } = JSON.parse(stdout) as {
      tools: { name: string; inputSchema: unknown; outputSchema?: unknown; annotations?: unknown }[];
    };
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    const findings = tools.flatMap((tool) =>
      [...lint(tool.inputSchema, 'inputSchema'), ...lint(tool.outputSchema ?? {}, 'outputSchema')].map(
        (f) => `${tool.name}: ${f.path}: ${f.issue}`,
      ),
    );
    expect(findings).toEqual([]);
    expect(tools.filter((t) => t.outputSchema === undefined || t.annotations === undefined)).toEqual([]);
  });
});
