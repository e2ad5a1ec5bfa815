// Cold start: from spawning the CLI process to its ready line, on a file database.
import { join } from 'node:path';
import { median, startSandbox, stop, tempDir } from '../lib.js';

async function coldStarts(count, dbPath) {
  const samples = [];
  for (let i = 0; i < count; i++) {
    const sandbox = await startSandbox({ dbPath: dbPath(i) });
    samples.push(sandbox.readyMs);
    await stop(sandbox.child);
  }
  return samples;
}

export default {
  name: 'ready',
  async run({ config }) {
    const dir = tempDir();
    // A new file each time: creating the database and running the migrations is included.
    const fresh = await coldStarts(config.coldStarts, (i) => join(dir, `fresh-${i}.db`));
    // The everyday case: reopening an existing database.
    const existing = await coldStarts(config.coldStarts, () => join(dir, 'fresh-0.db'));
    return [
      {
        kind: 'time',
        name: 'ready, new DB file',
        ms: median(fresh),
        samples: fresh,
        target: { maxMs: 1000 },
      },
      { kind: 'time', name: 'ready, existing DB file', ms: median(existing), samples: existing },
    ];
  },
};
