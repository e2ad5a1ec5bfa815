import { spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, sep } from 'node:path';

/**
 * The desktop app needs a better-sqlite3 binary built for Electron's ABI, while `npm install` builds
 * one for Node (which the CLI and the tests use). Rebuilding node_modules in place would break the
 * Node side, and a postinstall rebuild downloads Electron headers on every install, so the shell
 * builds its own copy once, on first launch, into the user-data dir, and hands its path to
 * better-sqlite3's `nativeBinding` option.
 */

/** Where the Electron build of better-sqlite3 is cached: one file per ABI, so an Electron upgrade rebuilds. */
export function nativeBindingPath(userData: string, modules: string): string {
  return join(userData, 'native', `better_sqlite3-${modules}.node`);
}

export interface BuildStep {
  label: string;
  /** Arguments for process.execPath (run as Node via ELECTRON_RUN_AS_NODE=1). */
  args: string[];
}

export interface BuildTools {
  /** prebuild-install's bin.js: downloads the published Electron prebuild. */
  prebuildInstall?: string | undefined;
  /** node-gyp's bin/node-gyp.js: compiles against Electron's headers (needs a C++ toolchain). */
  nodeGyp?: string | undefined;
}

/** The ways to get the binary, cheapest first. */
export function buildSteps(electronVersion: string, tools: BuildTools, arch = process.arch): BuildStep[] {
  const steps: BuildStep[] = [];
  if (tools.prebuildInstall) {
    steps.push({
      label: 'prebuild-install',
      args: [tools.prebuildInstall, '--runtime', 'electron', '--target', electronVersion, '--arch', arch],
    });
  }
  if (tools.nodeGyp) {
    steps.push({
      label: 'node-gyp rebuild',
      args: [
        tools.nodeGyp,
        'rebuild',
        '--release',
        '--runtime=electron',
        `--target=${electronVersion}`,
        `--arch=${arch}`,
        '--dist-url=https://electronjs.org/headers',
      ],
    });
  }
  return steps;
}

export type Runner = (
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
) => Promise<void>;

/** Runs a command, rejecting on a non-zero exit with the tail of its output. */
export const runCommand: Runner = (command, args, options) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(new Error(`${basename(args[0] ?? command)} exited with ${signal ?? code}\n${output.trim()}`));
    });
  });

function tryResolve(from: string, request: string): string | undefined {
  try {
    return createRequire(from).resolve(request);
  } catch {
    return undefined;
  }
}

/**
 * node-gyp is not a dependency of the project; npm ships one. Look next to the npm that launched us
 * (npm_execpath, set by `npm start`), then next to an npm on PATH.
 */
export function findNodeGyp(packageDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const local = tryResolve(join(packageDir, 'package.json'), 'node-gyp/bin/node-gyp.js');
  if (local) return local;
  const npmDirs: string[] = [];
  if (env.npm_execpath) npmDirs.push(dirname(dirname(env.npm_execpath)));
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const npm = join(dir, 'npm');
    if (!existsSync(npm)) continue;
    try {
      // <prefix>/bin/npm -> <prefix>/lib/node_modules/npm/bin/npm-cli.js
      npmDirs.push(dirname(dirname(realpathSync(npm))));
    } catch {}
  }
  for (const npmDir of npmDirs) {
    const candidate = join(npmDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * npm settings inherited from `npm start` would retarget the build: `nodedir` (common in ~/.npmrc)
 * makes node-gyp compile against Node's headers instead of Electron's, yielding a binary Electron
 * cannot load; target/runtime/disturl would override our flags. npm's per-package variables describe
 * svc-sandbox, not better-sqlite3. All of those are dropped.
 */
const RETARGETING =
  /^npm_(package_|lifecycle_|config_(nodedir|target|runtime|disturl|dist_url|arch|build_from_source)$)/i;

export function buildEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (!RETARGETING.test(name)) clean[name] = value;
  }
  clean.ELECTRON_RUN_AS_NODE = '1';
  return clean;
}

/** Whether better-sqlite3 failed because its binary does not fit this runtime (wrong ABI, corrupt file). */
export function isBindingLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /NODE_MODULE_VERSION|invalid ELF header|not a valid Win32 application|not a mach-o|file too short|wrong ELF class/i.test(
    message,
  );
}

export interface EnsureNativeBindingOptions {
  /** app.isPackaged: electron-builder rebuilt the module at package time; nothing to build. */
  packaged?: boolean | undefined;
  userData: string;
  /** Defaults to process.versions: `electron` is absent under plain Node. */
  versions?: { electron?: string | undefined; modules: string };
  /** The installed better-sqlite3 package directory (copied, never modified). */
  packageDir?: string;
  /** The runtime that runs the build tools (Electron itself, as Node). */
  execPath?: string;
  tools?: BuildTools;
  run?: Runner;
  log?: (line: string) => void;
}

/** Whether the better-sqlite3 package loads one Node-API binary everywhere (13 and later). */
export function isNodeApiPackage(packageDir: string): boolean {
  return existsSync(join(packageDir, 'prebuilds'));
}

export function betterSqlitePackageDir(): string {
  return dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
}

/**
 * Returns the path of an Electron build of better-sqlite3, building and caching it on first use;
 * undefined under plain Node, where the installed binary is already the right one.
 */
export async function ensureNativeBinding(options: EnsureNativeBindingOptions): Promise<string | undefined> {
  const versions = options.versions ?? process.versions;
  if (!versions.electron) return undefined;
  // A packaged app (npm run dist) ships better-sqlite3 already rebuilt for its Electron.
  if (options.packaged) return undefined;
  const packageDir = options.packageDir ?? betterSqlitePackageDir();
  // better-sqlite3 13 and later is a Node-API addon shipped with prebuilt binaries (prebuilds/):
  // Node-API is the same ABI in Node and in Electron, so the installed binary is already the right one.
  if (isNodeApiPackage(packageDir)) return undefined;
  const target = nativeBindingPath(options.userData, versions.modules);
  if (existsSync(target)) return target;

  const log = options.log ?? (() => {});
  const tools = options.tools ?? {
    prebuildInstall: tryResolve(join(packageDir, 'package.json'), 'prebuild-install/bin.js'),
    nodeGyp: findNodeGyp(packageDir),
  };
  const steps = buildSteps(versions.electron, tools);
  if (steps.length === 0)
    throw new Error(
      'Cannot build better-sqlite3 for Electron: neither prebuild-install nor node-gyp was found',
    );
  const run = options.run ?? runCommand;

  // Work in a temporary copy: the installed package (and its Node binary) stays untouched.
  const work = mkdtempSync(join(tmpdir(), 'svc-sandbox-native-'));
  try {
    const copy = join(work, 'better-sqlite3');
    const buildDir = join(packageDir, 'build');
    cpSync(packageDir, copy, {
      recursive: true,
      filter: (src) => src !== buildDir && !src.startsWith(buildDir + sep),
    });
    const built = join(copy, 'build', 'Release', 'better_sqlite3.node');
    const failures: string[] = [];
    for (const step of steps) {
      log(`building better-sqlite3 for Electron ${versions.electron} with ${step.label}`);
      try {
        await run(options.execPath ?? process.execPath, step.args, { cwd: copy, env: buildEnv(process.env) });
        if (existsSync(built)) break;
        failures.push(`${step.label}: finished without producing build/Release/better_sqlite3.node`);
      } catch (error) {
        failures.push(`${step.label}: ${(error as Error).message}`);
      }
    }
    if (!existsSync(built)) {
      throw new Error(
        `Cannot build better-sqlite3 for Electron ${versions.electron}:\n${failures.join('\n')}`,
      );
    }
    mkdirSync(dirname(target), { recursive: true });
    // Copy then rename, so a crash mid-copy never leaves a half-written binary in the cache.
    const partial = `${target}.${process.pid}.partial`;
    copyFileSync(built, partial);
    renameSync(partial, target);
    log(`cached ${target}`);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
