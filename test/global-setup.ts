import { execFileSync } from 'node:child_process';
import { unsupportedNode } from '../bin/supported-node.js';
import { findChromium } from './e2e/browser.js';

/**
 * Says once, at the top of the run, which Chromium drives the browser tests: a run's log then shows
 * whether it tested Debian's browser or the one in the npm package.
 */
export default async function announceBrowser(): Promise<void> {
  // On an older Node the workers would crash loading better-sqlite3, with no message.
  const problem = unsupportedNode();
  if (problem) throw new Error(problem);
  const binary = await findChromium();
  let version: string;
  try {
    version = execFileSync(binary.executablePath, ['--version'], {
      env: binary.env ?? process.env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'], // Debian's wrapper script warns on stderr
      timeout: 30_000,
    }).trim();
  } catch (error) {
    version = `does not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
  const source = { CHROMIUM_PATH: 'CHROMIUM_PATH', system: 'the system', bundled: 'the npm package' }[
    binary.source
  ];
  process.stdout.write(`browser tests: ${version}, from ${source} (${binary.executablePath})\n`);
}
