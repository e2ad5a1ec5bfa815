/** What the Electron preload exposes (main/preload.ts); absent when the dashboard runs in a browser. */
interface ShellInfo {
  kind: 'electron';
  platform: string;
  versions: { electron: string; chrome: string };
}

export const shellInfo: ShellInfo | undefined = (window as Window & { svcSandboxShell?: ShellInfo })
  .svcSandboxShell;
