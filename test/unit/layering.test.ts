import { execFile } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The layering of the codebase, as enforced by `npm run lint` (`biome ci .`, with the rules in biome.json):
//
// - server/contract/** imports only `typebox` and its sibling files;
// - server/{domain,simulate,webhooks,db,contract}/** never import fastify, @fastify/*, fastify-plugin or
//   server/http/**;
// - server/db/** and server/request-log/** never import server/{domain,simulate,webhooks,http}/**;
// - server/domain/** never imports server/simulate/** (simulate builds on the domain, not the reverse);
// - nothing in server/ but the wiring's top (server/cli/**, server/testing/**) imports
//   server/sandbox.ts;
// - server/http/** never imports server/db/** or server/request-log/** (not even types);
// - server/** never imports electron;
// - only the HTTP edge (server/http/plugins/workspace-scope.ts) imports server/workspaces/resolve.ts;
// - renderer/** imports only its own files, react, react-dom, zustand and, from server/contract, types
//   (and, as values, the display formats in server/format it shares with the hosted pages);
// - server/format/** imports only its sibling files (pure: the renderer bundles it).
// - renderer/{store,api,lib}/** never import renderer/{components,pages}/** (a TypeScript scan at the end
//   of this file, like the contract's type-only rule).
//
// Every rule is a `style/noRestrictedImports` pattern in an `overrides` entry of biome.json; the entries'
// `includes` are disjoint (the server/** entry negates the folders that have their own), because when two
// entries match a file the later one replaces the rule's `patterns` instead of adding to them.
//
// Type-only imports from the contract in the renderer. Biome 2.5's noRestrictedImports sees `import type`
// like any other import (it has no `allowTypeImports`), and most of the contract's names are both a value
// (the TypeBox schema) and a type (its Static), so value imports cannot be banned by name either. The
// renderer therefore gets three layers:
//   1. lint: noRestrictedImports allows `../server/contract/**` and bans every other server path, the
//      server-side packages (fastify, @fastify/*, better-sqlite3, typebox, electron, undici), Node
//      built-ins and any package but react, react-dom and zustand;
//   2. lint: `style/useImportType` (error, style "auto") and `style/useExportType` (error) in renderer/**:
//      an import whose names are used only as types must be a top-level `import type { ... }` (which is
//      erased; `import { type X }` is rejected because under `verbatimModuleSyntax` it still compiles to
//      `import {} from '...'`, which would load the contract module into the bundle);
//   3. this test: what lint cannot see, a contract name imported *and used as a value*, is caught by
//      `contractValueImports` below, run over the real renderer/ tree (last test in this file). A GritQL
//      plugin in biome.json (`plugins`) could turn it into a lint error; that needs a .grit file.
//      One value import is allowed: server/contract/call.ts, the operation table's caller (it and the
//      generated operations.ts hold only methods, paths and summaries, no schema and no TypeBox).
//
// How the rules are probed. `biome lint --stdin-file-path` does not help: in stdin mode Biome prints the
// (fixed) code back and never reports lint diagnostics (it exits 1 with "The contents aren't fixed"
// whatever the input). So each probe is a real file, in a throw-away copy of the layout under the OS temp
// folder, next to a byte-for-byte copy of the repository's biome.json: override globs are relative to the
// configuration file, so `server/domain/__probe__/x.ts` there gets exactly the rules that
// server/domain/**/*.ts gets here. (Not inside the repository: the probes import fastify, electron and
// server/db on purpose, and other work running typecheck or `biome ci .` on the tree at the same moment
// would trip over them.)

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

// The platform binary of the pinned @biomejs/biome (what its bin/biome wrapper execs), called directly:
// the Node wrapper costs ~0.3 s a call. Falls back to the wrapper where the binary is not found.
const biomeCommand = ((): [string, string[]] => {
  const require = createRequire(join(repoRoot, 'package.json'));
  const exe = process.platform === 'win32' ? 'biome.exe' : 'biome';
  for (const suffix of ['', '-musl']) {
    try {
      return [require.resolve(`@biomejs/cli-${process.platform}-${process.arch}${suffix}/${exe}`), []];
    } catch {
      // not this variant
    }
  }
  return [process.execPath, [require.resolve('@biomejs/biome/bin/biome')]];
})();

const RESTRICTED = 'lint/style/noRestrictedImports';
const IMPORT_TYPE = 'lint/style/useImportType';

// One distinctive piece of each message in biome.json.
const MSG = {
  contract: 'server/contract imports only typebox and its sibling files',
  fastify: 'never imports Fastify: put HTTP concerns in server/http',
  http: 'never imports server/http: the HTTP edge depends on the core',
  dbBottom: 'server/db is the bottom layer',
  httpNoDb: 'the HTTP edge never reaches a repository',
  httpNoRequestLog: "the HTTP edge never reaches the request log's store",
  electron: 'server code never imports Electron',
  rendererServer: 'the renderer never imports server code',
  rendererNode: 'the renderer runs in the browser: it never imports Node built-ins',
  rendererServerPackage: 'the renderer never imports server-side packages',
  rendererOnly: 'the renderer imports only its own files',
  importType: 'only used as types',
  domainSimulate: 'the domain never imports server/simulate',
  sandbox: 'nothing below the wiring imports server/sandbox.ts',
  format: 'server/format imports nothing but its sibling files',
  resolution: 'only the HTTP edge (server/http/plugins/workspace-scope.ts) resolves',
} as const;

interface Probe {
  /** What the probe shows, as the test name. */
  name: string;
  /** Where the probe file goes, relative to the (copied) repository root: it decides the overrides. */
  file: string;
  source: string;
  /** A rule and a piece of its message for a violation; absent for an allowed import. */
  expect?: { rule: string; message: string };
}

const banned = (message: string, rule = RESTRICTED) => ({ rule, message });

const probes: Probe[] = [
  // server/contract/** imports only typebox and its siblings.
  {
    name: 'contract → fastify',
    file: 'server/contract/probe-fastify.ts',
    source: "import Fastify from 'fastify';\nexport const probe = Fastify;\n",
    expect: banned(MSG.contract),
  },
  {
    name: 'contract → server/domain',
    file: 'server/contract/probe-domain.ts',
    source: "import type { Env } from '../domain/types.js';\nexport type Probe = Env;\n",
    expect: banned(MSG.contract),
  },
  {
    name: 'contract → server/http',
    file: 'server/contract/probe-http.ts',
    source: "import { routes } from '../http/routes.js';\nexport const probe = routes;\n",
    expect: banned(MSG.contract),
  },
  {
    name: 'contract → node:crypto',
    file: 'server/contract/probe-node.ts',
    source: "import { randomUUID } from 'node:crypto';\nexport const probe = randomUUID;\n",
    expect: banned(MSG.contract),
  },
  {
    name: 'contract → electron',
    file: 'server/contract/probe-electron.ts',
    source: "import { app } from 'electron';\nexport const probe = app;\n",
    expect: banned(MSG.contract),
  },
  {
    name: 'contract → typebox and a sibling (allowed)',
    file: 'server/contract/probe-ok.ts',
    source:
      "import { Type } from 'typebox';\nimport { Uuid } from './common.js';\n\n" +
      'export const Probe = Type.Object({ id: Uuid });\n',
  },

  // server/{domain,simulate,webhooks}/** never import Fastify or server/http.
  {
    name: 'domain → fastify',
    file: 'server/domain/__probe__/fastify.ts',
    source: "import Fastify from 'fastify';\nexport const probe = Fastify;\n",
    expect: banned(MSG.fastify),
  },
  {
    name: 'domain → fastify-plugin',
    file: 'server/domain/__probe__/fastify-plugin.ts',
    source: "import fp from 'fastify-plugin';\nexport const probe = fp;\n",
    expect: banned(MSG.fastify),
  },
  {
    name: 'simulate → @fastify/static',
    file: 'server/simulate/__probe__.ts',
    source: "import fastifyStatic from '@fastify/static';\nexport const probe = fastifyStatic;\n",
    expect: banned(MSG.fastify),
  },
  {
    name: 'webhooks → ../http/…',
    file: 'server/webhooks/__probe__.ts',
    source: "import { routes } from '../http/routes.js';\nexport const probe = routes;\n",
    expect: banned(MSG.http),
  },
  {
    name: 'domain (nested) → ../../http/…',
    file: 'server/domain/__probe__/http.ts',
    source: "import type { App } from '../../http/types.js';\nexport type Probe = App;\n",
    expect: banned(MSG.http),
  },
  {
    name: 'domain → contract and db (allowed)',
    file: 'server/domain/__probe__/ok.ts',
    source:
      "import type { Checkout } from '../../contract/checkouts.js';\n" +
      "import { findCheckout } from '../../db/checkouts.js';\n\n" +
      'export const probe = findCheckout;\nexport type Probe = Checkout;\n',
  },

  // server/domain/** never imports server/simulate/**.
  {
    name: 'domain (nested) → ../../simulate/…',
    file: 'server/domain/__probe__/simulate.ts',
    source:
      "import { ChainSimulator } from '../../simulate/chain.js';\nexport const probe = ChainSimulator;\n",
    expect: banned(MSG.domainSimulate),
  },
  {
    name: 'domain → ../simulate/… (type-only too)',
    file: 'server/domain/__probe__-simulate.ts',
    source: "import type { PayoutRail } from '../simulate/payouts.js';\nexport type Probe = PayoutRail;\n",
    expect: banned(MSG.domainSimulate),
  },
  {
    name: 'domain → the address leaf beside ids.ts (allowed)',
    file: 'server/domain/__probe__/addresses.ts',
    source:
      "import { isValidAddress } from '../../addresses/formats.js';\nimport type { Ids } from '../../ids.js';\n\n" +
      'export const probe = isValidAddress;\nexport type Probe = Ids;\n',
  },
  {
    name: 'simulate → domain (allowed)',
    file: 'server/simulate/__probe__-domain.ts',
    source: "import { Ledger } from '../domain/ledger/service.js';\nexport const probe = Ledger;\n",
  },

  // Nothing below the wiring imports server/sandbox.ts; the CLI (the top) does.
  {
    name: 'server root (the context) → ./sandbox.js',
    file: 'server/__probe__-sandbox.ts',
    source: "import { createSandbox } from './sandbox.js';\nexport const probe = createSandbox;\n",
    expect: banned(MSG.sandbox),
  },
  {
    name: 'scenarios → ../sandbox.js',
    file: 'server/scenarios/__probe__.ts',
    source: "import { createSandbox } from '../sandbox.js';\nexport const probe = createSandbox;\n",
    expect: banned(MSG.sandbox),
  },
  {
    name: 'http → ../../sandbox.js (type-only too)',
    file: 'server/http/sandbox/__probe__.ts',
    source: "import type { Sandbox } from '../../sandbox.js';\nexport type Probe = Sandbox;\n",
    expect: banned(MSG.sandbox),
  },
  {
    name: 'domain → ../../sandbox.js',
    file: 'server/domain/__probe__/sandbox.ts',
    source: "import { createSandbox } from '../../sandbox.js';\nexport const probe = createSandbox;\n",
    expect: banned(MSG.sandbox),
  },
  {
    name: 'webhooks → ../sandbox.js',
    file: 'server/webhooks/__probe__-sandbox.ts',
    source: "import { createSandbox } from '../sandbox.js';\nexport const probe = createSandbox;\n",
    expect: banned(MSG.sandbox),
  },
  {
    name: 'db → ../sandbox.js',
    file: 'server/db/__probe__-sandbox.ts',
    source: "import { createSandbox } from '../sandbox.js';\nexport const probe = createSandbox;\n",
    expect: banned(MSG.sandbox),
  },
  {
    name: 'http → its own ./sandbox/ routes folder (allowed: not server/sandbox.ts)',
    file: 'server/http/__probe__-routes.ts',
    source:
      "import { scenarioControlRoutes } from './sandbox/scenarios.js';\nexport const probe = scenarioControlRoutes;\n",
  },
  {
    name: 'cli → ../sandbox.js (allowed: the CLI is the top)',
    file: 'server/cli/__probe__.ts',
    source: "import { createSandbox } from '../sandbox.js';\nexport const probe = createSandbox;\n",
  },
  {
    name: 'cli/index.ts → ../sandbox.js (allowed)',
    file: 'server/cli/index.ts',
    source: "import { createSandbox } from '../sandbox.js';\nexport const probe = createSandbox;\n",
  },
  // Only the HTTP edge resolves a request's workspace; the rest reads the one the request is bound to.
  {
    name: 'http route → workspaces/resolve',
    file: 'server/http/sandbox/__probe__-resolve.ts',
    source:
      "import { resolveWorkspace } from '../../workspaces/resolve.js';\nexport const probe = resolveWorkspace;\n",
    expect: banned(MSG.resolution),
  },
  {
    name: 'domain → workspaces/resolve',
    file: 'server/domain/__probe__/resolve.ts',
    source:
      "import { resolveWorkspace } from '../../workspaces/resolve.js';\nexport const probe = resolveWorkspace;\n",
    expect: banned(MSG.resolution),
  },
  {
    name: 'workspaces → ./resolve',
    file: 'server/workspaces/__probe__-resolve.ts',
    source: "import { resolveWorkspace } from './resolve.js';\nexport const probe = resolveWorkspace;\n",
    expect: banned(MSG.resolution),
  },
  {
    name: 'the edge (http/plugins/workspace-scope.ts) → workspaces/resolve (allowed)',
    file: 'server/http/plugins/workspace-scope.ts',
    source:
      "import { resolveWorkspace } from '../../workspaces/resolve.js';\nexport const probe = resolveWorkspace;\n",
  },
  {
    name: 'testing → ../sandbox.js (allowed: svc-sandbox/testing starts a sandbox, like the CLI)',
    file: 'server/testing/__probe__.ts',
    source: "import { createSandbox } from '../sandbox.js';\nexport const probe = createSandbox;\n",
  },
  {
    name: 'testing → electron',
    file: 'server/testing/__probe__-electron.ts',
    source: "import { app } from 'electron';\nexport const probe = app;\n",
    expect: banned(MSG.electron),
  },
  {
    name: 'cli → electron (the wiring keeps that rule)',
    file: 'server/cli/__probe__-electron.ts',
    source: "import { app } from 'electron';\nexport const probe = app;\n",
    expect: banned(MSG.electron),
  },
  {
    name: 'sandbox.ts → electron',
    file: 'server/sandbox.ts',
    source: "import { app } from 'electron';\nexport const probe = app;\n",
    expect: banned(MSG.electron),
  },

  // server/db/** is the bottom layer.
  {
    name: 'db → fastify',
    file: 'server/db/__probe__/fastify.ts',
    source: "import Fastify from 'fastify';\nexport const probe = Fastify;\n",
    expect: banned(MSG.fastify),
  },
  {
    name: 'db → server/http',
    file: 'server/db/__probe__/http.ts',
    source: "import { routes } from '../../http/routes.js';\nexport const probe = routes;\n",
    expect: banned(MSG.http),
  },
  {
    name: 'db → server/domain',
    file: 'server/db/__probe__-domain.ts',
    source:
      "import { createCheckout } from '../domain/checkouts/service.js';\nexport const probe = createCheckout;\n",
    expect: banned(MSG.dbBottom),
  },
  {
    name: 'db → server/simulate',
    file: 'server/db/__probe__-simulate.ts',
    source: "import { simulate } from '../simulate/payments.js';\nexport const probe = simulate;\n",
    expect: banned(MSG.dbBottom),
  },
  {
    name: 'db → server/webhooks',
    file: 'server/db/__probe__-webhooks.ts',
    source: "import { sign } from '../webhooks/sign.js';\nexport const probe = sign;\n",
    expect: banned(MSG.dbBottom),
  },
  {
    name: 'db → better-sqlite3, contract and a sibling (allowed)',
    file: 'server/db/__probe__-ok.ts',
    source:
      "import Database from 'better-sqlite3';\nimport type { Checkout } from '../contract/checkouts.js';\n" +
      "import { page } from './pagination.js';\n\n" +
      'export const probe = [Database, page];\nexport type Probe = Checkout;\n',
  },

  // server/request-log/** is storage too: the same rules as server/db/**.
  {
    name: 'request-log → server/domain',
    file: 'server/request-log/__probe__-domain.ts',
    source: "import { maskKey } from '../domain/requests/service.js';\nexport const probe = maskKey;\n",
    expect: banned(MSG.dbBottom),
  },
  {
    name: 'request-log → fastify',
    file: 'server/request-log/__probe__-fastify.ts',
    source: "import Fastify from 'fastify';\nexport const probe = Fastify;\n",
    expect: banned(MSG.fastify),
  },
  {
    name: 'request-log → node:fs, contract and a sibling (allowed)',
    file: 'server/request-log/__probe__-ok.ts',
    source:
      "import { openSync } from 'node:fs';\nimport type { Env } from '../contract/common.js';\n" +
      "import { pack } from './codec.js';\n\n" +
      'export const probe = [openSync, pack];\nexport type Probe = Env;\n',
  },
  {
    name: 'http → server/request-log',
    file: 'server/http/sandbox/__probe__-request-log.ts',
    source: "import type { RequestLog } from '../../request-log/log.js';\nexport type Probe = RequestLog;\n",
    expect: banned(MSG.httpNoRequestLog),
  },

  // server/http/** never reaches server/db/**.
  {
    name: 'http → ../../db/… (value)',
    file: 'server/http/v1/__probe__.ts',
    source: "import { findCheckout } from '../../db/checkouts.js';\nexport const probe = findCheckout;\n",
    expect: banned(MSG.httpNoDb),
  },
  {
    name: 'http → ../db/… (type-only too)',
    file: 'server/http/__probe__.ts',
    source: "import type { CheckoutRow } from '../db/checkouts.js';\nexport type Probe = CheckoutRow;\n",
    expect: banned(MSG.httpNoDb),
  },
  {
    name: 'http → fastify, domain and contract (allowed)',
    file: 'server/http/v1/__probe__-ok.ts',
    source:
      "import type { FastifyInstance } from 'fastify';\nimport type { Checkout } from '../../contract/checkouts.js';\n" +
      "import { createCheckout } from '../../domain/checkouts/service.js';\n\n" +
      'export const probe = createCheckout;\nexport type Probe = [Checkout, FastifyInstance];\n',
  },

  // server/** never imports electron (each override repeats it).
  {
    name: 'server root → electron',
    file: 'server/__probe__.ts',
    source: "import { app } from 'electron';\nexport const probe = app;\n",
    expect: banned(MSG.electron),
  },
  {
    name: 'http → electron',
    file: 'server/http/__probe__-electron.ts',
    source: "import { app } from 'electron';\nexport const probe = app;\n",
    expect: banned(MSG.electron),
  },
  {
    name: 'domain → electron',
    file: 'server/domain/__probe__/electron.ts',
    source: "import { app } from 'electron';\nexport const probe = app;\n",
    expect: banned(MSG.electron),
  },
  {
    name: 'db → electron',
    file: 'server/db/__probe__-electron.ts',
    source: "import { app } from 'electron';\nexport const probe = app;\n",
    expect: banned(MSG.electron),
  },

  // server/format/** imports nothing but its siblings: the renderer bundles it.
  {
    name: 'format → node:crypto',
    file: 'server/format/__probe__-node.ts',
    source: "import { randomUUID } from 'node:crypto';\nexport const probe = randomUUID;\n",
    expect: banned(MSG.format),
  },
  {
    name: 'format → server/ids',
    file: 'server/format/__probe__-ids.ts',
    source: "import { newId } from '../ids.js';\nexport const probe = newId;\n",
    expect: banned(MSG.format),
  },
  {
    name: 'format → a sibling (allowed)',
    file: 'server/format/__probe__-ok.ts',
    source: "import { formatDay } from './dates.js';\nexport const probe = formatDay;\n",
  },

  // renderer/**: its own files, the dashboard's packages, and types from the contract.
  {
    name: 'renderer → import type from the contract (allowed)',
    file: 'renderer/api/__probe__-type.ts',
    source:
      "import type { Checkout } from '../../server/contract/checkouts.js';\n\nexport type Probe = Checkout;\n",
  },
  {
    name: 'renderer (nested) → import type / export type from the contract (allowed)',
    file: 'renderer/pages/Checkouts/__probe__.tsx',
    source:
      "import type { Checkout } from '../../../server/contract/checkouts.js';\n\n" +
      "export type { Merchant } from '../../../server/contract/merchants.js';\n" +
      'export type Probe = Checkout;\n',
  },
  {
    name: 'renderer → react, react-dom, zustand and its own files (allowed)',
    file: 'renderer/store/__probe__.ts',
    source:
      "import { useState } from 'react';\nimport { createRoot } from 'react-dom/client';\n" +
      "import { create } from 'zustand';\nimport { request } from '../api/client';\n\n" +
      'export const probe = [useState, createRoot, create, request];\n',
  },
  {
    name: 'renderer → server/format, the display formats it shares with the hosted pages (allowed)',
    file: 'renderer/lib/__probe__-format.ts',
    source:
      "import { formatTimestamp } from '../../server/format/dates.js';\nexport const probe = formatTimestamp;\n",
  },
  {
    name: 'renderer → server/format/../http (escaping the shared formats)',
    file: 'renderer/lib/__probe__-format-escape.ts',
    source:
      "import { escapeHtml } from '../../server/format/../http/pages/html.js';\nexport const probe = escapeHtml;\n",
    expect: banned(MSG.rendererServer),
  },
  {
    name: 'renderer → contract without `type`, used as a type',
    file: 'renderer/api/__probe__-no-type.ts',
    source:
      "import { Checkout } from '../../server/contract/checkouts.js';\n\nexport type Probe = Checkout;\n",
    expect: banned(MSG.importType, IMPORT_TYPE),
  },
  {
    name: 'renderer → contract with an inline `{ type X }`',
    file: 'renderer/api/__probe__-inline-type.ts',
    source:
      "import { type Checkout } from '../../server/contract/checkouts.js';\n\nexport type Probe = Checkout;\n",
    expect: banned(MSG.importType, IMPORT_TYPE),
  },
  {
    name: 'renderer → server/db',
    file: 'renderer/api/__probe__-db.ts',
    source:
      "import { findCheckout } from '../../server/db/checkouts.js';\nexport const probe = findCheckout;\n",
    expect: banned(MSG.rendererServer),
  },
  {
    name: 'renderer → server/domain',
    file: 'renderer/api/__probe__-domain.ts',
    source:
      "import { createCheckout } from '../../server/domain/checkouts/service.js';\nexport const probe = createCheckout;\n",
    expect: banned(MSG.rendererServer),
  },
  {
    name: 'renderer → server/http, type-only (only the contract may give types)',
    file: 'renderer/api/__probe__-http.ts',
    source: "import type { App } from '../../server/http/types.js';\nexport type Probe = App;\n",
    expect: banned(MSG.rendererServer),
  },
  {
    name: 'renderer → server/contract/../db (escaping the contract)',
    file: 'renderer/api/__probe__-escape.ts',
    source:
      "import { findCheckout } from '../../server/contract/../db/checkouts.js';\nexport const probe = findCheckout;\n",
    expect: banned(MSG.rendererServer),
  },
  {
    name: 'renderer → dynamic import() of server code',
    file: 'renderer/api/__probe__-dynamic.ts',
    source: "export async function probe() {\n  return import('../../server/app.js');\n}\n",
    expect: banned(MSG.rendererServer),
  },
  {
    name: 'renderer → node:fs',
    file: 'renderer/api/__probe__-node.ts',
    source: "import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n",
    expect: banned(MSG.rendererNode),
  },
  {
    name: 'renderer → fastify',
    file: 'renderer/api/__probe__-fastify.ts',
    source: "import Fastify from 'fastify';\nexport const probe = Fastify;\n",
    expect: banned(MSG.rendererServerPackage),
  },
  {
    name: 'renderer → better-sqlite3',
    file: 'renderer/api/__probe__-sqlite.ts',
    source: "import Database from 'better-sqlite3';\nexport const probe = Database;\n",
    expect: banned(MSG.rendererServerPackage),
  },
  {
    name: 'renderer → typebox (value import)',
    file: 'renderer/api/__probe__-typebox.ts',
    source: "import { Type } from 'typebox';\nexport const probe = Type;\n",
    expect: banned(MSG.rendererServerPackage),
  },
  {
    name: 'renderer → a package that is not the dashboard’s',
    file: 'renderer/api/__probe__-package.ts',
    source: "import QRCode from 'qrcode';\nexport const probe = QRCode;\n",
    expect: banned(MSG.rendererOnly),
  },
  {
    name: 'renderer → main/ (the Electron shell)',
    file: 'renderer/api/__probe__-main.ts',
    source: "import { expose } from '../../main/preload.js';\nexport const probe = expose;\n",
    expect: banned(MSG.rendererOnly),
  },
];

interface LintResult {
  code: number;
  output: string;
}

async function biomeLint(cwd: string, file: string): Promise<LintResult> {
  const [command, prefix] = biomeCommand;
  const args = [...prefix, 'lint', '--colors=off', '--max-diagnostics=none', file];
  try {
    const { stdout, stderr } = await run(command, args, { cwd, env: { ...process.env, NO_COLOR: '1' } });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('layering (biome.json noRestrictedImports)', () => {
  let root = '';

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'svc-sandbox-layering-'));
    copyFileSync(join(repoRoot, 'biome.json'), join(root, 'biome.json'));
    for (const probe of probes) {
      const path = join(root, probe.file);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, probe.source);
    }
  });

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('has one probe file per probe', () => {
    expect(new Set(probes.map((p) => p.file)).size).toBe(probes.length);
  });

  for (const probe of probes) {
    const verdict = probe.expect ? 'fails' : 'passes';
    it.concurrent(`${probe.name}: ${verdict}`, async () => {
      const { code, output } = await biomeLint(root, probe.file);
      if (probe.expect) {
        expect(code, output).not.toBe(0);
        expect(output).toContain(`${probe.file}:`);
        expect(output).toContain(probe.expect.rule);
        expect(output).toContain(probe.expect.message);
        // The probe has one offending import, and nothing else is wrong with it.
        expect(output).toMatch(/Found 1 error\./);
      } else {
        expect(code, output).toBe(0);
        expect(output).not.toContain(RESTRICTED);
      }
    });
  }
});

// Layer 3 of the renderer's type-only rule (see the top of the file): every import or re-export in
// renderer/ that reaches server/contract must be a top-level `import type` / `export type`, and
// nothing may `import()` it at run time. Type positions (`typeof import('...')`) are erased and fine.
function contractValueImports(fileName: string, text: string): string[] {
  const contractDir = join(repoRoot, 'server', 'contract');
  const reachesContract = (specifier: string) => {
    if (!specifier.startsWith('.')) return false;
    const target = resolve(dirname(fileName), specifier);
    const rel = relative(contractDir, target);
    // The operation table's caller: a small runtime table with no schema, made to be bundled.
    if (rel === 'call.js' || rel === 'call.ts') return false;
    return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[a-zA-Z]:/.test(rel));
  };
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push(`${relative(repoRoot, fileName)}:${line + 1}: ${node.getText(source).split('\n')[0]}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (reachesContract(node.moduleSpecifier.text) && !node.importClause?.isTypeOnly) report(node);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (reachesContract(node.moduleSpecifier.text) && !node.isTypeOnly) report(node);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const ref = node.moduleReference.expression;
      if (ts.isStringLiteral(ref) && reachesContract(ref.text) && !node.isTypeOnly) report(node);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0]) &&
      reachesContract(node.arguments[0].text)
    ) {
      report(node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function rendererFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : rendererFiles(path);
    return /\.(ts|tsx|mts|cts)$/.test(entry.name) ? [path] : [];
  });
}

describe('renderer imports only types from server/contract (beyond what Biome can see)', () => {
  const at = join(repoRoot, 'renderer', 'api', 'probe.ts');

  it('flags a contract name imported and used as a value', () => {
    const text =
      "import { CHECKOUT_STATUSES } from '../../server/contract/checkouts.js';\nexport const all = CHECKOUT_STATUSES;\n";
    expect(contractValueImports(at, text)).toEqual([
      "renderer/api/probe.ts:1: import { CHECKOUT_STATUSES } from '../../server/contract/checkouts.js';",
    ]);
  });

  it('flags inline `{ type X }`, mixed, namespace, side-effect, re-export and import() forms', () => {
    const text = [
      "import { type Checkout } from '../../server/contract/checkouts.js';",
      "import { type Merchant, Role } from '../../server/contract/merchants.js';",
      "import * as contract from '../../server/contract/index.js';",
      "import '../../server/contract/settings.js';",
      "export { Card } from '../../server/contract/cards.js';",
      "export const load = () => import('../../server/contract/events.js');",
    ].join('\n');
    expect(contractValueImports(at, text)).toHaveLength(6);
  });

  it('allows `import type`, `export type` and type-position import() of the contract', () => {
    const text = [
      "import type { Checkout } from '../../server/contract/checkouts.js';",
      "import type * as Contract from '../../server/contract/index.js';",
      "export type { Merchant } from '../../server/contract/merchants.js';",
      "export type Events = typeof import('../../server/contract/events.js');",
      "import { request } from './client';",
      'export type Both = [Checkout, Contract.Checkout, typeof request];',
    ].join('\n');
    expect(contractValueImports(at, text)).toEqual([]);
  });

  it('holds for every file in renderer/', () => {
    const violations = rendererFiles(join(repoRoot, 'renderer')).flatMap((file) =>
      contractValueImports(file, readFileSync(file, 'utf8')),
    );
    expect(violations).toEqual([]);
  });
});

// The renderer's own direction: pages → components → store → api, and lib/ (pure helpers) below all
// of them. The store, the api layer and lib/ never import a component or a page (an arrow that ran
// back up: the store took its money formatting from components/ before it moved to lib/).
function upwardImports(fileName: string, text: string): string[] {
  const renderer = join(repoRoot, 'renderer');
  const upper = ['components', 'pages'].map((dir) => join(renderer, dir));
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier.text
        : ts.isCallExpression(node) &&
            node.expression.kind === ts.SyntaxKind.ImportKeyword &&
            node.arguments[0] &&
            ts.isStringLiteralLike(node.arguments[0])
          ? node.arguments[0].text
          : undefined;
    if (specifier?.startsWith('.')) {
      const target = resolve(dirname(fileName), specifier);
      if (upper.some((dir) => target === dir || target.startsWith(dir + sep))) {
        found.push(`${relative(repoRoot, fileName)}: ${specifier}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('renderer: store/, api/ and lib/ never import components/ or pages/', () => {
  it('flags an import, a re-export and an import() that runs back up', () => {
    const at = join(repoRoot, 'renderer', 'store', 'probe.ts');
    const text = [
      "import { formatAmount } from '../components/format';",
      "export { Pager } from '../components/Pager';",
      "export const load = () => import('../pages/Checkouts/CheckoutList');",
      "import { request } from '../api/client';",
      "import { formatAmount as f } from '../lib/format';",
    ].join('\n');
    expect(upwardImports(at, text)).toEqual([
      'renderer/store/probe.ts: ../components/format',
      'renderer/store/probe.ts: ../components/Pager',
      'renderer/store/probe.ts: ../pages/Checkouts/CheckoutList',
    ]);
  });

  it('holds for every file in renderer/store, renderer/api and renderer/lib', () => {
    const violations = ['store', 'api', 'lib']
      .flatMap((dir) => rendererFiles(join(repoRoot, 'renderer', dir)))
      .flatMap((file) => upwardImports(file, readFileSync(file, 'utf8')));
    expect(violations).toEqual([]);
  });
});
