import { describe, expect, it } from 'vitest';
import type { BoundWorkspace } from '../../server/workspaces/binding.js';
import { namedWorkspace, resolveWorkspace, type WorkspaceFinder } from '../../server/workspaces/resolve.js';

// The edge's one decision per request: which workspace it acts in (server/workspaces/resolve.ts).
interface Fake {
  id: string;
  name: string;
  keys: string[];
  bind(): BoundWorkspace | null;
}
const fake = (id: string, name: string, keys: string[] = []): Fake => ({ id, name, keys, bind: () => null });
const main = fake('default', 'Default', ['svcb_main']);
const qa = fake('ws_qa', 'QA', ['svcb_qa']);
const finder: WorkspaceFinder<Fake> = {
  default: main,
  find: (idOrName) =>
    [main, qa].find((w) => w.id === idOrName || w.name.toLowerCase() === idOrName.toLowerCase()),
  findByKey: (key) => [main, qa].find((w) => w.keys.includes(key)),
};

describe('workspace resolution', () => {
  it('/v1 finds the workspace from the API key; an unknown key is said so, a missing one is the default', () => {
    expect(resolveWorkspace(finder, { url: '/v1/checkouts', authorization: 'Bearer svcb_qa' })).toEqual({
      workspace: qa,
      missing: null,
    });
    expect(resolveWorkspace(finder, { url: '/v1', authorization: 'bearer   svcb_qa  ' }).workspace).toBe(qa);
    expect(resolveWorkspace(finder, { url: '/v1/checkouts', authorization: 'Bearer svcb_nope' })).toEqual({
      workspace: main,
      missing: null,
      unknownKey: true,
    });
    expect(resolveWorkspace(finder, { url: '/v1/checkouts' }).workspace).toBe(main);
    // /v1 ignores the header and the query: the key decides.
    expect(
      resolveWorkspace(finder, {
        url: '/v1/checkouts?workspace=QA',
        header: 'QA',
        authorization: 'Bearer svcb_main',
      }).workspace,
    ).toBe(main);
  });

  it('everything else: the /w/<id> prefix, then the header, then ?workspace=, else the default', () => {
    expect(
      resolveWorkspace(finder, { url: '/w/ws_qa/pay/x', prefixed: 'ws_qa', header: 'Default' }).workspace,
    ).toBe(qa);
    expect(resolveWorkspace(finder, { url: '/sandbox/clock', header: 'qa' }).workspace).toBe(qa);
    expect(resolveWorkspace(finder, { url: '/sandbox/events?env=test&workspace=QA' }).workspace).toBe(qa);
    expect(resolveWorkspace(finder, { url: '/sandbox/clock' })).toEqual({ workspace: main, missing: null });
  });

  it('a workspace named but not found is missing (a 404 at the edge), answered from the default one', () => {
    expect(resolveWorkspace(finder, { url: '/sandbox/clock', header: 'Gone' })).toEqual({
      workspace: main,
      missing: 'Gone',
    });
    expect(resolveWorkspace(finder, { url: '/pay/x', prefixed: 'ws_gone' })).toEqual({
      workspace: main,
      missing: 'ws_gone',
    });
  });

  it('reads ?workspace= decoded, and an empty header as no header', () => {
    expect(namedWorkspace({ url: '/x?workspace=My+QA%21' })).toBe('My QA!');
    expect(namedWorkspace({ url: '/x?workspace=%E0%A4%A' })).toBe('%E0%A4%A');
    expect(namedWorkspace({ url: '/x', header: '' })).toBeUndefined();
    expect(namedWorkspace({ url: '/x?a=1&workspace=QA#frag' })).toBe('QA');
  });
});
