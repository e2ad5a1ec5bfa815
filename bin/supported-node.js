#!/usr/bin/env node
// Which Node this package runs on. On an older Node, better-sqlite3's addon crashes the process as
// it loads (Node 20 ends in a segmentation fault and prints nothing), so every entry point asks this
// first and refuses with a message instead. Run directly, it exits 1 on an unsupported Node.
// Plain JavaScript any Node can parse: it has to run on the Nodes it turns away.
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * The oldest supported Node as [major, minor, patch], read from package.json's `engines.node`, which
 * must have the form `>=MAJOR.MINOR[.PATCH]`.
 */
export function oldestNode(range = packageJson.engines?.node) {
  const match = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(String(range ?? '').trim());
  if (!match) throw new Error(`package.json engines.node must read ">=MAJOR.MINOR[.PATCH]", not ${range}`);
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

/** Why this Node cannot run svc-sandbox, or undefined when it can. */
export function unsupportedNode(version = process.versions.node, range = packageJson.engines?.node) {
  const oldest = oldestNode(range);
  const parts = String(version).replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const have = parts[i] || 0;
    if (have > oldest[i]) return undefined;
    if (have < oldest[i]) {
      const floor = oldest[2] ? oldest.join('.') : `${oldest[0]}.${oldest[1]}`;
      return (
        `svc-sandbox needs Node ${floor} or newer (24 LTS is recommended); ` +
        `this is Node ${version} (${process.execPath}). Put a newer Node first on PATH and run it again.`
      );
    }
  }
  return undefined;
}

/** Exits 1 with the reason on standard error when this Node cannot run svc-sandbox. */
export function requireSupportedNode() {
  const problem = unsupportedNode();
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
}

/** Whether this file is the script Node was started with (`node bin/supported-node.js`). */
function invokedDirectly() {
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedDirectly()) requireSupportedNode();
