import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { oldestNode, unsupportedNode } from '../../bin/supported-node.js';

// bin/supported-node.js: the Node floor every entry point checks before it loads the server.

describe('the supported Node', () => {
  it("is read from package.json's engines", () => {
    const engines = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).engines;
    expect(engines.node).toBe('>=22.12');
    expect(oldestNode()).toEqual([22, 12, 0]);
    expect(oldestNode('>= 24.1.3')).toEqual([24, 1, 3]);
  });

  it('accepts the floor and every newer Node, including this one', () => {
    for (const version of ['22.12.0', '22.12.1', '22.13.0', '23.0.0', '24.11.1', 'v25.0.0'])
      expect(unsupportedNode(version), version).toBeUndefined();
    expect(unsupportedNode()).toBeUndefined();
    expect(unsupportedNode('24.1.3', '>=24.1.3')).toBeUndefined();
  });

  it('turns away an older one, naming the Node it needs and the one it found', () => {
    for (const version of ['20.20.2', '22.11.9', '18.0.0', 'v21.7.3', '22']) {
      const problem = unsupportedNode(version);
      expect(problem, version).toContain('svc-sandbox needs Node 22.12 or newer (24 LTS is recommended)');
      expect(problem, version).toContain(`this is Node ${version} (${process.execPath})`);
    }
    expect(unsupportedNode('24.1.2', '>=24.1.3')).toContain('needs Node 24.1.3 or newer');
  });

  it('is a range it can read, or an error saying which form it must have', () => {
    for (const range of ['^22.12.0', '>=22', '22.x', ''])
      expect(() => oldestNode(range)).toThrow(/engines\.node must read ">=MAJOR\.MINOR\[\.PATCH\]"/);
  });
});
