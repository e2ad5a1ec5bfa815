import { afterEach } from 'vitest';
import { runCleanups } from './helpers/cleanup.js';

// Every test file, in a worker of its own or one shared with other files: what the helpers opened
// for a test is closed after it.
afterEach(runCleanups);
