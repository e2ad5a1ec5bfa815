import { describe, expect, it } from 'vitest';
import {
  chooseStartWorkspace,
  describeFired,
  findWorkspace,
  inboxNameOf,
  inboxUrl,
  withWorkspaceParam,
  workspaceParamOf,
} from '../../renderer/lib/workspaces.js';

const base = { default: false };
const list = [
  { id: 'default', name: 'Default', default: true },
  { ...base, id: 'ws_AAAAAAAAAAAAAAAA', name: 'QA checkout' },
  { ...base, id: 'ws_BBBBBBBBBBBBBBBB', name: 'Demo' },
];

describe('which workspace the dashboard opens', () => {
  it('finds a workspace by id, else by name whatever its case', () => {
    expect(findWorkspace(list, 'ws_BBBBBBBBBBBBBBBB')?.name).toBe('Demo');
    expect(findWorkspace(list, 'demo')?.id).toBe('ws_BBBBBBBBBBBBBBBB');
    expect(findWorkspace(list, 'qa CHECKOUT')?.id).toBe('ws_AAAAAAAAAAAAAAAA');
    expect(findWorkspace(list, 'nope')).toBeUndefined();
  });

  it('opens the link’s workspace before the remembered one, and the default without either', () => {
    expect(chooseStartWorkspace(list, 'Demo', 'ws_AAAAAAAAAAAAAAAA')).toEqual({
      workspace: list[2],
      missing: null,
    });
    expect(chooseStartWorkspace(list, null, 'ws_AAAAAAAAAAAAAAAA').workspace?.name).toBe('QA checkout');
    expect(chooseStartWorkspace(list, null, null)).toEqual({ workspace: list[0], missing: null });
  });

  it('opens the sandbox’s start workspace (serve --demo) before the remembered one, the link before both', () => {
    expect(
      chooseStartWorkspace(list, null, 'ws_AAAAAAAAAAAAAAAA', 'ws_BBBBBBBBBBBBBBBB').workspace?.name,
    ).toBe('Demo');
    expect(chooseStartWorkspace(list, 'QA checkout', null, 'ws_BBBBBBBBBBBBBBBB').workspace?.name).toBe(
      'QA checkout',
    );
    // a start workspace that is gone is no reason to complain: the remembered one opens
    expect(chooseStartWorkspace(list, null, 'ws_AAAAAAAAAAAAAAAA', 'ws_GONE').workspace?.name).toBe(
      'QA checkout',
    );
  });

  it('falls back to the default, saying what is gone, when the asked-for workspace is not there', () => {
    expect(chooseStartWorkspace(list, null, 'ws_CCCCCCCCCCCCCCCC')).toEqual({
      workspace: list[0],
      missing: 'ws_CCCCCCCCCCCCCCCC',
    });
    expect(chooseStartWorkspace(list, 'Gone', 'ws_AAAAAAAAAAAAAAAA')).toEqual({
      workspace: list[0],
      missing: 'Gone',
    });
  });
});

describe('addresses that name a workspace', () => {
  it('sets ?workspace= and keeps the path, other parameters and the hash; the default has none', () => {
    expect(withWorkspaceParam('http://127.0.0.1:4010/#/checkouts', 'Demo')).toBe(
      'http://127.0.0.1:4010/?workspace=Demo#/checkouts',
    );
    expect(withWorkspaceParam('http://h/?a=1&workspace=Old#/x', 'QA checkout')).toBe(
      'http://h/?a=1&workspace=QA+checkout#/x',
    );
    expect(withWorkspaceParam('http://h/?workspace=Demo#/x', 'default')).toBe('http://h/#/x');
    expect(withWorkspaceParam('http://h/?a=1&workspace=Demo', null)).toBe('http://h/?a=1');
  });

  it('reads the workspace a page address names', () => {
    expect(workspaceParamOf('?workspace=QA+checkout')).toBe('QA checkout');
    expect(workspaceParamOf('?workspace=')).toBeNull();
    expect(workspaceParamOf('')).toBeNull();
  });

  it('gives the built-in inbox an address in its workspace, and reads the inbox back from it', () => {
    const url = inboxUrl('http://127.0.0.1:4010', 'demo', 'ws_AAAAAAAAAAAAAAAA');
    expect(url).toBe('http://127.0.0.1:4010/sandbox/inbox/demo?workspace=ws_AAAAAAAAAAAAAAAA');
    expect(inboxUrl('http://127.0.0.1:4010', 'demo', 'default')).toBe(
      'http://127.0.0.1:4010/sandbox/inbox/demo',
    );
    expect(inboxNameOf(url)).toBe('demo');
    expect(inboxNameOf('http://127.0.0.1:4010/sandbox/inbox/orders-1')).toBe('orders-1');
    expect(inboxNameOf('https://example.com/hooks')).toBeNull();
  });
});

describe('what a clock advance fired, in words', () => {
  it('counts events by type, most first, then delivery attempts and jobs', () => {
    const events = [
      { type: 'invoice.overdue', id: 'evt_1' },
      { type: 'checkout.expired', id: 'evt_2' },
      { type: 'checkout.expired', id: 'evt_3' },
    ];
    expect(describeFired({ events, deliveries: 1, jobs: 2 })).toBe(
      'Fired: 3 events (checkout.expired ×2, invoice.overdue), 1 delivery attempt, 2 scheduled jobs.',
    );
    expect(describeFired({ events: [], deliveries: 0, jobs: 0 })).toBe('Nothing fell due.');
    const many = ['a', 'b', 'c', 'd', 'e', 'f'].map((type, i) => ({ type, id: `evt_${i}` }));
    expect(describeFired({ events: many, deliveries: 0, jobs: 1 })).toBe(
      'Fired: 6 events (a, b, c, d, 2 more), 1 scheduled job.',
    );
  });
});
