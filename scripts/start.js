#!/usr/bin/env node
// `npm start` (after `npm run build`): the desktop app when Electron's binary is installed, otherwise
// the very same sandbox headless (`svc-sandbox serve`), whose dashboard opens in any browser.
// Extra arguments go to the headless CLI (e.g. `npm start -- --port 0 --db :memory:`).
// `--headless` forces the headless mode even where Electron is installed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireSupportedNode } from '../bin/supported-node.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/**
 * The Electron executable, or why there is none. The electron package resolves to the binary's path,
 * and throws ("Electron failed to install correctly, please delete node_modules/electron...") when
 * the binary was never downloaded: on CI, in containers and wherever its download is skipped or
 * unreachable, which is where running headless is the intended path, so that advice is not passed on.
 */
function findElectron() {
  const absent = "Electron's binary is not installed here";
  try {
    const path = require('electron');
    if (typeof path === 'string' && existsSync(path)) return { path };
    return { reason: absent };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/failed to install/i.test(message)) return { reason: absent };
    return { reason: `Electron cannot be loaded (${message.split('\n')[0]})` };
  }
}

/**
 * Runs the child in its own process group, so a Ctrl-C reaches it once, through us, rather than
 * twice (terminal + forwarding); we forward SIGINT/SIGTERM/SIGHUP and exit with its status.
 */
function run(command, args, env = process.env) {
  const child = spawn(command, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: process.platform !== 'win32',
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  child.on('error', (error) => {
    console.error(`svc-sandbox: cannot start ${command}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
  });
}

requireSupportedNode(); // the headless sandbox runs on this Node
const args = process.argv.slice(2);
const forceHeadless = args.includes('--headless');
const cliArgs = args.filter((arg) => arg !== '--headless');
const electron = findElectron();
const noDisplay = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;

if (electron.path && !forceHeadless && !noDisplay) {
  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE; // would make Electron behave as plain Node
  run(electron.path, ['.', ...cliArgs], env);
} else {
  const cli = join(root, 'dist/server/cli.js');
  if (!existsSync(cli)) {
    console.error('svc-sandbox: dist/server/cli.js is missing; run `npm run build` first.');
    process.exit(1);
  }
  const why = forceHeadless
    ? '--headless was given'
    : electron.path
      ? 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)'
      : electron.reason;
  console.log(`svc-sandbox: running headless (${why}); open the dashboard URL below in a browser.`);
  run(process.execPath, [cli, 'serve', ...cliArgs]);
}
