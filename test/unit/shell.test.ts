import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The Electron shell's decisions, without Electron: `electron` is replaced by a recording fake (its
// binary is not installed here, and these tests are about our code, not Electron's).

const electron = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => void;
  const state = { userData: '', windows: [] as FakeWindow[] };
  class FakeWindow {
    readonly listeners = new Map<string, Listener>();
    openHandler: ((details: { url: string }) => { action: string }) | undefined;
    permissionHandler:
      | ((contents: unknown, permission: string, callback: (ok: boolean) => void) => void)
      | undefined;
    loadedUrl: string | undefined;
    readonly webContents = {
      on: (event: string, listener: Listener) => this.listeners.set(event, listener),
      setWindowOpenHandler: (handler: FakeWindow['openHandler']) => {
        this.openHandler = handler;
      },
      session: {
        setPermissionRequestHandler: (handler: FakeWindow['permissionHandler']) => {
          this.permissionHandler = handler;
        },
      },
    };
    constructor(readonly options: Record<string, unknown>) {
      state.windows.push(this);
    }
    once() {}
    show() {}
    async loadURL(url: string) {
      this.loadedUrl = url;
    }
  }
  return {
    state,
    module: {
      app: { getPath: (name: string) => (name === 'userData' ? state.userData : tmpdir()) },
      BrowserWindow: FakeWindow,
      shell: { openExternal: vi.fn(async (_url: string) => {}) },
    },
  };
});
vi.mock('electron', () => electron.module);

const {
  betterSqlitePackageDir,
  buildEnv,
  buildSteps,
  ensureNativeBinding,
  isBindingLoadError,
  isNodeApiPackage,
  nativeBindingPath,
} = await import('../../main/native.js');
const { choosePorts, isPortFree, startServerHost } = await import('../../main/server-host.js');
const { createMainWindow, dashboardUrlFor, navigationDecision, windowOptions, workspaceOfUrl } = await import(
  '../../main/window.js'
);

const dirs: string[] = [];
const servers: Server[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sandbox-shell-'));
  dirs.push(dir);
  return dir;
};
/** Holds a port, as another program would. */
const occupyPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    servers.push(server);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });

beforeEach(() => {
  electron.state.userData = tempDir();
  electron.state.windows.length = 0;
  electron.module.shell.openExternal.mockClear();
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('window', () => {
  it('runs the dashboard isolated: context isolation, no Node integration, sandboxed', () => {
    const options = windowOptions('/app/out/preload/preload.cjs');
    expect(options.webPreferences).toMatchObject({
      preload: '/app/out/preload/preload.cjs',
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
    });
  });

  it('allows only the sandbox origins inside the window', () => {
    const origins = ['http://127.0.0.1:4010', 'http://127.0.0.1:4011'];
    expect(navigationDecision('http://127.0.0.1:4010/#/merchants', origins)).toBe('allow');
    expect(navigationDecision('http://127.0.0.1:4011/checkout/abc', origins)).toBe('allow');
    expect(navigationDecision('http://127.0.0.1:4012/', origins)).toBe('external');
    expect(navigationDecision('http://localhost:4010/', origins)).toBe('external');
    expect(navigationDecision('https://example.com/docs', origins)).toBe('external');
    expect(navigationDecision('file:///etc/passwd', origins)).toBe('deny');
    expect(navigationDecision('javascript:alert(1)', origins)).toBe('deny');
    expect(navigationDecision('not a url', origins)).toBe('deny');
  });

  it('opens the dashboard URL and keeps navigation and new windows in check', () => {
    const origins = ['http://127.0.0.1:4010'];
    createMainWindow({ url: 'http://127.0.0.1:4010/', preload: '/p.cjs', allowedOrigins: origins });
    const window = electron.state.windows[0]!;
    expect(window.loadedUrl).toBe('http://127.0.0.1:4010/');
    expect(window.options.webPreferences).toMatchObject({
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
    });

    const navigate = (url: string) => {
      const event = { preventDefault: vi.fn() };
      window.listeners.get('will-navigate')!(event, url);
      return event.preventDefault.mock.calls.length > 0;
    };
    expect(navigate('http://127.0.0.1:4010/#/clock')).toBe(false);
    expect(navigate('https://example.com/')).toBe(true);
    expect(electron.module.shell.openExternal).toHaveBeenLastCalledWith('https://example.com/');
    electron.module.shell.openExternal.mockClear();
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(electron.module.shell.openExternal).not.toHaveBeenCalled();

    // New windows never open in the app; web pages go to the system browser.
    expect(window.openHandler!({ url: 'http://127.0.0.1:4010/checkout/1' })).toEqual({ action: 'deny' });
    expect(electron.module.shell.openExternal).toHaveBeenLastCalledWith('http://127.0.0.1:4010/checkout/1');
    electron.module.shell.openExternal.mockClear();
    expect(window.openHandler!({ url: 'file:///tmp/x' })).toEqual({ action: 'deny' });
    expect(electron.module.shell.openExternal).not.toHaveBeenCalled();

    const answers: boolean[] = [];
    window.permissionHandler!({}, 'notifications', (ok) => answers.push(ok));
    expect(answers).toEqual([false]);
  });
});

describe('the last workspace', () => {
  it('opens the dashboard on a workspace by its address, and reads the workspace back from one', () => {
    expect(dashboardUrlFor('http://127.0.0.1:4010/', undefined)).toBe('http://127.0.0.1:4010/');
    expect(dashboardUrlFor('http://127.0.0.1:4010/', 'QA checkout')).toBe(
      'http://127.0.0.1:4010/?workspace=QA+checkout',
    );
    expect(workspaceOfUrl('http://127.0.0.1:4010/?workspace=QA+checkout#/clock')).toBe('QA checkout');
    expect(workspaceOfUrl('http://127.0.0.1:4010/#/clock')).toBeNull();
    expect(workspaceOfUrl('not a url')).toBeNull();
  });

  it('follows the workspace the dashboard names in its address, on the sandbox origins only', () => {
    const seen: (string | null)[] = [];
    createMainWindow({
      url: 'http://127.0.0.1:4010/?workspace=Demo',
      preload: '/p.cjs',
      allowedOrigins: ['http://127.0.0.1:4010'],
      onWorkspace: (workspace) => seen.push(workspace),
    });
    const window = electron.state.windows.at(-1)!;
    expect(window.loadedUrl).toBe('http://127.0.0.1:4010/?workspace=Demo');
    const inPage = window.listeners.get('did-navigate-in-page')!;
    inPage({}, 'http://127.0.0.1:4010/?workspace=QA#/checkouts');
    inPage({}, 'http://127.0.0.1:4010/#/checkouts');
    inPage({}, 'https://example.com/?workspace=Elsewhere');
    expect(seen).toEqual(['QA', null]);
  });
});

describe('native binding', () => {
  /** A stand-in for node_modules/better-sqlite3, with a Node build that must not be reused. */
  function fakePackage(): string {
    const dir = join(tempDir(), 'better-sqlite3');
    mkdirSync(join(dir, 'build', 'Release'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"name":"better-sqlite3","version":"12.0.0"}');
    writeFileSync(join(dir, 'binding.gyp'), '{}');
    writeFileSync(join(dir, 'build', 'Release', 'better_sqlite3.node'), 'node build');
    return dir;
  }
  const tools = {
    prebuildInstall: '/nm/prebuild-install/bin.js',
    nodeGyp: '/npm/node_modules/node-gyp/bin/node-gyp.js',
  };
  const electronVersions = { electron: '40.8.5', modules: '143' };

  it('caches one binary per ABI in the user-data dir', () => {
    expect(nativeBindingPath('/home/u/.config/svc-sandbox', '143')).toBe(
      join('/home/u/.config/svc-sandbox', 'native', 'better_sqlite3-143.node'),
    );
  });

  it('tries the Electron prebuild first, then a node-gyp build against Electron headers', () => {
    const steps = buildSteps('40.8.5', tools, 'x64');
    expect(steps.map((s) => s.label)).toEqual(['prebuild-install', 'node-gyp rebuild']);
    expect(steps[0]!.args).toEqual([
      tools.prebuildInstall,
      '--runtime',
      'electron',
      '--target',
      '40.8.5',
      '--arch',
      'x64',
    ]);
    expect(steps[1]!.args).toEqual([
      tools.nodeGyp,
      'rebuild',
      '--release',
      '--runtime=electron',
      '--target=40.8.5',
      '--arch=x64',
      '--dist-url=https://electronjs.org/headers',
    ]);
    expect(buildSteps('40.8.5', {})).toEqual([]);
  });

  it('keeps npm settings that would retarget the build away from the build tools', () => {
    const env = buildEnv({
      PATH: '/usr/bin',
      HTTPS_PROXY: 'http://proxy:3128',
      npm_config_nodedir: '/usr', // from ~/.npmrc: would compile against Node's headers
      npm_config_target: '20.19.0',
      npm_config_runtime: 'node',
      npm_config_disturl: 'https://nodejs.org/dist',
      npm_config_cache: '/home/u/.npm',
      npm_package_name: 'svc-sandbox',
      npm_lifecycle_event: 'start',
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HTTPS_PROXY: 'http://proxy:3128',
      npm_config_cache: '/home/u/.npm',
      ELECTRON_RUN_AS_NODE: '1',
    });
  });

  it('recognises a binary built for another runtime', () => {
    const abi = new Error(
      "The module 'better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 143.",
    );
    expect(isBindingLoadError(abi)).toBe(true);
    expect(isBindingLoadError(new Error('/x/better_sqlite3.node: invalid ELF header'))).toBe(true);
    expect(isBindingLoadError(new Error('SQLITE_CANTOPEN: unable to open database file'))).toBe(false);
  });

  it('needs nothing under plain Node', async () => {
    const run = vi.fn();
    const result = await ensureNativeBinding({ userData: tempDir(), versions: { modules: '115' }, run });
    expect(result).toBeUndefined();
    expect(run).not.toHaveBeenCalled();
  });

  it('builds nothing in a packaged app (electron-builder rebuilt the module at package time)', async () => {
    const run = vi.fn();
    const userData = tempDir();
    const result = await ensureNativeBinding({ userData, versions: electronVersions, packaged: true, run });
    expect(result).toBeUndefined();
    expect(run).not.toHaveBeenCalled();
  });

  it('reuses a cached binary without building', async () => {
    const userData = tempDir();
    const cached = nativeBindingPath(userData, '143');
    mkdirSync(join(userData, 'native'));
    writeFileSync(cached, 'electron build');
    const run = vi.fn();
    expect(
      await ensureNativeBinding({
        userData,
        versions: electronVersions,
        packageDir: fakePackage(),
        tools,
        run,
      }),
    ).toBe(cached);
    expect(run).not.toHaveBeenCalled();
  });

  it('builds nothing for a Node-API package (its prebuilt binary loads in Electron as in Node)', async () => {
    const packageDir = fakePackage();
    mkdirSync(join(packageDir, 'prebuilds'));
    writeFileSync(join(packageDir, 'prebuilds', 'linux-x64.node'), 'node-api build');
    const run = vi.fn();
    const userData = tempDir();
    expect(
      await ensureNativeBinding({ userData, versions: electronVersions, packageDir, tools, run }),
    ).toBeUndefined();
    expect(run).not.toHaveBeenCalled();
  });

  it('finds the installed better-sqlite3 to be a Node-API package', () => {
    expect(isNodeApiPackage(betterSqlitePackageDir())).toBe(true);
  });

  it('builds in a copy of the package with Electron as Node, and caches the result', async () => {
    vi.stubEnv('npm_config_nodedir', '/usr');
    const userData = tempDir();
    const packageDir = fakePackage();
    const calls: {
      command: string;
      args: string[];
      cwd: string;
      env: NodeJS.ProcessEnv;
      hadNodeBuild: boolean;
    }[] = [];
    const result = await ensureNativeBinding({
      userData,
      versions: electronVersions,
      packageDir,
      execPath: '/opt/svc-sandbox/electron',
      tools,
      run: async (command, args, { cwd, env }) => {
        const binary = join(cwd, 'build', 'Release', 'better_sqlite3.node');
        calls.push({ command, args, cwd, env, hadNodeBuild: existsSync(binary) });
        mkdirSync(join(cwd, 'build', 'Release'), { recursive: true });
        writeFileSync(binary, 'electron build');
      },
    });

    expect(result).toBe(nativeBindingPath(userData, '143'));
    expect(readFileSync(result!, 'utf8')).toBe('electron build');
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call!.command).toBe('/opt/svc-sandbox/electron');
    expect(call!.args.slice(1, 5)).toEqual(['--runtime', 'electron', '--target', '40.8.5']);
    expect(call!.env.ELECTRON_RUN_AS_NODE).toBe('1');
    expect(call!.env.npm_config_nodedir).toBeUndefined();
    expect(call!.cwd).not.toBe(packageDir);
    expect(existsSync(join(call!.cwd, 'binding.gyp'))).toBe(false); // the temporary copy is gone
    expect(call!.hadNodeBuild).toBe(false); // the Node build was not copied along
    // The installed package is untouched.
    expect(readFileSync(join(packageDir, 'build', 'Release', 'better_sqlite3.node'), 'utf8')).toBe(
      'node build',
    );
  });

  it('falls back to node-gyp when no prebuild can be fetched, and explains a total failure', async () => {
    const packageDir = fakePackage();
    const labels: string[] = [];
    const fallback = await ensureNativeBinding({
      userData: tempDir(),
      versions: electronVersions,
      packageDir,
      tools,
      run: async (_command, args, { cwd }) => {
        labels.push(args[0]!);
        if (args[0] === tools.prebuildInstall)
          throw new Error('prebuild-install exited with 1\nnetwork unreachable');
        mkdirSync(join(cwd, 'build', 'Release'), { recursive: true });
        writeFileSync(join(cwd, 'build', 'Release', 'better_sqlite3.node'), 'compiled');
      },
    });
    expect(labels).toEqual([tools.prebuildInstall, tools.nodeGyp]);
    expect(readFileSync(fallback!, 'utf8')).toBe('compiled');

    const userData = tempDir();
    await expect(
      ensureNativeBinding({
        userData,
        versions: electronVersions,
        packageDir,
        tools,
        run: async () => {
          throw new Error('no network, no compiler');
        },
      }),
    ).rejects.toThrow(
      /Electron 40\.8\.5:\nprebuild-install: no network, no compiler\nnode-gyp rebuild: no network/,
    );
    expect(existsSync(nativeBindingPath(userData, '143'))).toBe(false);
  });
});

describe('server host', () => {
  it('keeps the preferred ports when free and falls back to any free port when taken', async () => {
    expect(choosePorts({ test: 4010, production: 4011 }, { test: true, production: true })).toEqual({
      test: 4010,
      production: 4011,
    });
    expect(choosePorts({ test: 4010, production: 4011 }, { test: false, production: true })).toEqual({
      test: 0,
      production: 4011,
    });
    expect(choosePorts({ test: 4010, production: 4011 }, { test: false, production: false })).toEqual({
      test: 0,
      production: 0,
    });

    const taken = await occupyPort();
    expect(await isPortFree(taken)).toBe(false);
    expect(await isPortFree(0)).toBe(true);
  });

  it('starts the sandbox in-process with its database in user data and returns the dashboard URL', async () => {
    const dashboardDir = tempDir();
    writeFileSync(join(dashboardDir, 'index.html'), '<!doctype html><title>svc-sandbox</title>dashboard');
    const host = await startServerHost({ dashboardDir, ports: { test: 0, production: 0 } });
    try {
      expect(host.dashboardUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect(host.dashboardUrl).toBe(`${host.urls.test}/`);
      expect(host.origins).toEqual([new URL(host.urls.test).origin, new URL(host.urls.production).origin]);
      expect(existsSync(join(electron.state.userData, 'svc-sandbox.db'))).toBe(true);

      const page = await fetch(host.dashboardUrl);
      expect(await page.text()).toContain('dashboard');
      const health = (await (await fetch(`${host.urls.test}/sandbox/health`)).json()) as {
        urls: { dashboard: string };
      };
      expect(health.urls.dashboard).toBe(host.dashboardUrl);
    } finally {
      await host.close();
    }
  });

  it('still starts when a preferred port is held by another program', async () => {
    const taken = await occupyPort();
    const host = await startServerHost({
      dashboardDir: tempDir(),
      userData: tempDir(),
      ports: { test: taken, production: 0 },
    });
    try {
      expect(new URL(host.urls.test).port).not.toBe(String(taken));
      expect((await fetch(`${host.urls.test}/sandbox/health`)).status).toBe(200);
    } finally {
      await host.close();
    }
  });
});
