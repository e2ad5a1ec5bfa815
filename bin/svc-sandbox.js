#!/usr/bin/env node
// The package bin: runs the built CLI (npm run build:server produces dist/server).
import { main } from '../dist/server/cli.js';

await main(process.argv.slice(2));
