import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCaBundle } from '../server/webhooks/trust.js';

/**
 * The desktop app's own preferences, in `<userData>/preferences.json`: settings of this machine
 * (not of the workspace, so neither reset nor export/import touches them).
 */
export interface Preferences {
  /** a PEM bundle trusted for HTTPS webhook receivers (serve --webhook-ca) */
  webhookCaFile?: string;
  /**
   * the workspace the window showed last (its name, as the dashboard's address names it), reopened
   * on the next launch even when the ports, and so the page's own storage, have changed
   */
  lastWorkspace?: string;
}

const FILE = 'preferences.json';

/** The saved preferences; none (or a file that is not ours to read) are the defaults. */
export function loadPreferences(userData: string): Preferences {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(userData, FILE), 'utf8'));
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const { webhookCaFile, lastWorkspace } = parsed as Record<string, unknown>;
  return {
    ...(typeof webhookCaFile === 'string' && webhookCaFile !== '' ? { webhookCaFile } : {}),
    ...(typeof lastWorkspace === 'string' && lastWorkspace !== '' ? { lastWorkspace } : {}),
  };
}

/** Saves whole (a temporary file renamed over the old one): a crash never leaves half a file. */
export function savePreferences(userData: string, preferences: Preferences): void {
  const path = join(userData, FILE);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(preferences, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

/**
 * The webhook CA certificates the preferences name. A file that has gone or no longer holds a
 * certificate does not stop the app: it starts without it, and `problem` says why.
 */
export function webhookCaOf(preferences: Preferences): { ca?: string[]; problem?: string } {
  if (preferences.webhookCaFile === undefined) return {};
  try {
    return { ca: readCaBundle(preferences.webhookCaFile) };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}
