import { basename } from 'node:path';
import { app, type BrowserWindow, dialog, Menu, MenuItem } from 'electron';
import { readCaBundle } from '../server/webhooks/trust.js';
import { loadPreferences, savePreferences } from './preferences.js';

/**
 * The desktop app's webhook CA setting (what `serve --webhook-ca FILE` is to the CLI): a Webhooks
 * menu to choose a PEM bundle (a local CA such as mkcert's rootCA.pem, or a receiver's self-signed
 * certificate) or stop trusting it. The choice is kept in the preferences and applies from the next
 * start of the sandbox, which the menu offers at once (a relaunch keeps the workspace: it is on disk).
 */
export function installWebhookCaMenu(options: {
  userData: string;
  current: { file: string | undefined; problem: string | undefined };
  window: () => BrowserWindow | undefined;
}): void {
  const { userData, current } = options;
  const status = current.file
    ? `Trusted CA: ${basename(current.file)}${current.problem ? ' (not in use: see its warning)' : ''}`
    : 'Trusted CA: none besides the system and NODE_EXTRA_CA_CERTS';
  const submenu = Menu.buildFromTemplate([
    { label: status, enabled: false },
    { type: 'separator' },
    { label: 'Trust a Certificate Authority for HTTPS Receivers…', click: () => void choose() },
    { label: 'Stop Trusting It', enabled: current.file !== undefined, click: () => void apply(undefined) },
  ]);
  const menu = Menu.getApplicationMenu() ?? new Menu();
  menu.append(new MenuItem({ label: 'Webhooks', submenu }));
  Menu.setApplicationMenu(menu);

  async function choose(): Promise<void> {
    const parent = options.window();
    const picked = await (parent
      ? dialog.showOpenDialog(parent, openOptions)
      : dialog.showOpenDialog(openOptions));
    const file = picked.filePaths[0];
    if (picked.canceled || file === undefined) return;
    try {
      readCaBundle(file);
    } catch (error) {
      dialog.showErrorBox('Not a certificate bundle', (error as Error).message);
      return;
    }
    await apply(file);
  }

  async function apply(file: string | undefined): Promise<void> {
    savePreferences(userData, { ...loadPreferences(userData), webhookCaFile: file });
    const { response } = await dialog.showMessageBox({
      type: 'info',
      message: file ? `Webhooks will trust ${basename(file)}` : 'Webhooks will trust no extra CA',
      detail: 'The sandbox applies it when it restarts. Your workspace is kept.',
      buttons: ['Restart Now', 'Later'],
      defaultId: 0,
      cancelId: 1,
    });
    if (response === 0) {
      app.relaunch();
      app.quit();
    }
  }
}

const openOptions: Electron.OpenDialogOptions = {
  title: 'Trust a Certificate Authority for HTTPS webhook receivers',
  buttonLabel: 'Trust',
  properties: ['openFile'],
  filters: [
    { name: 'PEM certificates', extensions: ['pem', 'crt', 'cer'] },
    { name: 'All files', extensions: ['*'] },
  ],
};
