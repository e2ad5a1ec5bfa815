import { BrowserWindow, type BrowserWindowConstructorOptions, shell } from 'electron';

/**
 * The window shows the dashboard served by the in-process sandbox over HTTP: it needs no Node access
 * at all, so it runs with Electron's strictest settings.
 */
export function windowOptions(preload: string, icon?: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    title: 'svc-sandbox',
    backgroundColor: '#f6f7f9',
    show: false,
    ...(icon ? { icon } : {}),
    webPreferences: {
      preload,
      contextIsolation: true,
      nodeIntegration: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  };
}

export type NavigationDecision = 'allow' | 'external' | 'deny';

/**
 * Inside the window: only the sandbox's own origins. Other web pages (docs links, a webhook receiver's
 * UI) go to the system browser; any other scheme (file:, javascript:, custom protocols) is refused.
 */
export function navigationDecision(url: string, allowedOrigins: readonly string[]): NavigationDecision {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'deny';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'deny';
  if (allowedOrigins.includes(parsed.origin)) return 'allow';
  return 'external';
}

/** The dashboard's address opening a workspace (`?workspace=`), or as it is for none. */
export function dashboardUrlFor(url: string, workspace: string | undefined): string {
  if (!workspace) return url;
  const parsed = new URL(url);
  parsed.searchParams.set('workspace', workspace);
  return parsed.toString();
}

/** The workspace a dashboard address names (the dashboard keeps it in its address), or null for the default. */
export function workspaceOfUrl(url: string): string | null {
  try {
    return new URL(url).searchParams.get('workspace') || null;
  } catch {
    return null;
  }
}

export interface MainWindowOptions {
  url: string;
  preload: string;
  icon?: string | undefined;
  allowedOrigins: readonly string[];
  /** The dashboard switched workspace (its address changed): the name, or null for the default. */
  onWorkspace?: ((workspace: string | null) => void) | undefined;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow(windowOptions(options.preload, options.icon));
  const { webContents } = window;

  webContents.on('will-navigate', (event, url) => {
    const decision = navigationDecision(url, options.allowedOrigins);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'external') void shell.openExternal(url);
  });
  // New windows (target=_blank, window.open) never open inside the app: a sandbox page such as a
  // hosted checkout is better shown in the system browser, where it is also reachable.
  webContents.setWindowOpenHandler(({ url }) => {
    if (navigationDecision(url, options.allowedOrigins) !== 'deny') void shell.openExternal(url);
    return { action: 'deny' };
  });
  // The dashboard names the workspace it shows in its address (history.replaceState): followed
  // here, so the next launch reopens it. No IPC: the window stays without any bridge to main.
  webContents.on('did-navigate-in-page', (_event, url) => {
    if (options.onWorkspace && navigationDecision(url, options.allowedOrigins) === 'allow') {
      options.onWorkspace(workspaceOfUrl(url));
    }
  });
  // The dashboard asks for no permissions (camera, notifications, ...); refuse them all.
  webContents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));

  window.once('ready-to-show', () => window.show());
  void window.loadURL(options.url);
  return window;
}
