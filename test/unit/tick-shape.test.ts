import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// The built module (the test command builds first), as serve and the desktop shell load it.
const MODULE = pathToFileURL(join(process.cwd(), 'dist/server/runtime/tick-shape.js')).href;

/**
 * holdTickShape (server/runtime/tick-shape.ts) relies on Node announcing its process.nextTick entries to
 * async_hooks as 'TickObject'. If a Node version stopped doing so, nothing would be held and the
 * sandbox would only be slower, silently: this is the check that it still works on this Node. Run
 * in a child process, as the entry points run it: once, in a process of its own.
 */
function run(code: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', code], {
    encoding: 'utf8',
  }).trim();
}

describe('holdTickShape', () => {
  it('holds a process.nextTick entry, and leaves no hook installed', () => {
    const out = run(`
      import { createHook } from 'node:async_hooks';
      import { holdTickShape } from ${JSON.stringify(MODULE)};
      const held = holdTickShape();
      // A hook left enabled would see this tick; a new one sees it only when it is enabled itself.
      let seen = 0;
      const probe = createHook({ init() { seen++; } });
      process.nextTick(() => {
        console.log(JSON.stringify({ held, again: holdTickShape(), seen }));
      });
      void probe;
    `);
    expect(JSON.parse(out)).toEqual({ held: true, again: true, seen: 0 });
  });
});
