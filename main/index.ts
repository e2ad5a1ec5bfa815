import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { app, type BrowserWindow, dialog } from 'electron';
import { ensureNativeBinding, isBindingLoadError } from './native.js';
import { loadPreferences, savePreferences } from './preferences.js';
import { type ServerHost, startServerHost } from './server-host.js';
import { installWebhookCaMenu } from './webhook-ca-menu.js';
import { createMainWindow, dashboardUrlFor } from './window.js';

// App lifecycle only: the decisions live in native.ts, server-host.ts and window.ts.

const here = import.meta.dirname;
const dashboardDir = join(here, '../renderer');
const preload = join(here, '../preload/preload.cjs');
const iconFile = join(here, '../../resources/icon.png');
const icon = existsSync(iconFile) ? iconFile : undefined;

let host: ServerHost | undefined;
let mainWindow: BrowserWindow | undefined;

/** Remembers the workspace the window shows, so the next launch reopens it. */
function rememberWorkspace(userData: string, workspace: string | null): void {
  const preferences = loadPreferences(userData);
  if ((preferences.lastWorkspace ?? null) === workspace) return;
  const { lastWorkspace: _, ...rest } = preferences;
  savePreferences(userData, workspace === null ? rest : { ...rest, lastWorkspace: workspace });
}

function openWindow(): void {
  if (!host) return;
  const userData = app.getPath('userData');
  // The last workspace (gone since? the dashboard then opens the default and says so).
  const url = dashboardUrlFor(host.dashboardUrl, loadPreferences(userData).lastWorkspace);
  mainWindow = createMainWindow({
    url,
    preload,
    icon,
    allowedOrigins: host.origins,
    onWorkspace: (workspace) => rememberWorkspace(userData, workspace),
  });
  mainWindow.on('closed', () => {
    mainWindow = undefined;
  });
}

async function start(): Promise<void> {
  const userData = app.getPath('userData');
  const nativeBinding = await ensureNativeBinding({
    userData,
    packaged: app.isPackaged,
    log: (line) => console.log(`svc-sandbox: ${line}`),
  });
  try {
    host = await startServerHost({ userData, dashboardDir, nativeBinding });
  } catch (error) {
    // A cached binary that does not load is dropped, so the next launch builds it again.
    if (nativeBinding && isBindingLoadError(error)) rmSync(nativeBinding, { force: true });
    throw error;
  }
  const { urls, webhookCa } = host;
  console.log(
    `svc-sandbox ready test=${urls.test} production=${urls.production} dashboard=${urls.dashboard}`,
  );
  installWebhookCaMenu({ userData, current: webhookCa, window: () => mainWindow });
  openWindow();
  if (webhookCa.problem) {
    console.error(`svc-sandbox: webhook CA not in use: ${webhookCa.problem}`);
    void dialog.showMessageBox({
      type: 'warning',
      message: 'The webhook CA could not be read',
      detail: `${webhookCa.problem}\n\nHTTPS receivers are checked against the system's CAs only. Choose another file in the Webhooks menu.`,
    });
  }
}

// One instance per user-data dir: a second one would fight over the database and the ports.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return openWindow();
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      dialog.showErrorBox(
        'svc-sandbox could not start',
        error instanceof Error ? (error.stack ?? error.message) : String(error),
      );
      app.exit(1);
    });

  // macOS keeps the app (and its server) running without windows, as apps there do.
  app.on('activate', () => {
    if (!mainWindow) openWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Close the sandbox (listeners, scheduler, database) before the process goes.
  app.on('will-quit', (event) => {
    if (!host) return;
    event.preventDefault();
    const closing = host;
    host = undefined;
    closing
      .close()
      .catch((error: unknown) => console.error('svc-sandbox: error while closing', error))
      .finally(() => app.quit());
  });
}
