import { contextBridge } from 'electron';

/**
 * Sandboxed preload. The dashboard talks to the server over HTTP only, so nothing privileged is
 * exposed: just enough for the page to know it runs inside the desktop shell.
 */
contextBridge.exposeInMainWorld('svcSandboxShell', {
  kind: 'electron',
  platform: process.platform,
  versions: { electron: process.versions.electron, chrome: process.versions.chrome },
});
