#!/usr/bin/env node
// The package bin: runs the built CLI (npm run build:server produces dist/server), after checking the
// Node: the CLI is imported only once this Node is known to load it.
import { requireSupportedNode } from './supported-node.js';

requireSupportedNode();
const { main } = await import('../dist/server/cli.js');
await main(process.argv.slice(2));
