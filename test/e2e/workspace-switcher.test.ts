/// <reference lib="dom" />
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dashboardUrl, dismissNotices, page, resultsDir, sandbox, setupDashboard } from './harness.js';

// The workspace switcher in real Chromium against a real sandbox: create a workspace with its own
// clock, switch, see each world's own data, save a checkpoint, change something, restore, fork,
// delete; the choice survives a reload and a link opens a workspace by name.

setupDashboard();

const byTestId = (id: string) => page.getByTestId(id);
const HEADER = 'x-svc-workspace';

interface WorkspaceRecord {
  id: string;
  name: string;
}

/** A control call as a script makes it, in a workspace (by id or name) or, without one, the default. */
async function control<T>(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  workspace?: string,
  payload?: object,
) {
  const response = await sandbox.apps.test.inject({
    method,
    url,
    ...(workspace ? { headers: { [HEADER]: workspace } } : {}),
    ...(payload ? { payload } : {}),
  });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return (response.body ? response.json() : undefined) as T;
}

const merchantNames = async (workspace?: string) =>
  (await control<{ name: string }[]>('GET', '/sandbox/merchants', workspace)).map((m) => m.name).sort();

async function openPanel() {
  if ((await byTestId('workspace-panel').count()) === 0) await byTestId('workspace-switcher').click();
  await byTestId('workspace-panel').waitFor();
  // The panel's contents are a chunk of their own, fetched on first open.
  await byTestId('workspace-list').waitFor();
}

const row = (name: string) => page.locator(`[data-testid="workspace-row"][data-name="${name}"]`);

async function switchTo(name: string) {
  await openPanel();
  await row(name).getByTestId('workspace-open').click();
  await byTestId('workspace-current').filter({ hasText: name }).waitFor();
  await byTestId('workspace-panel').waitFor({ state: 'detached' });
}

/** The merchants listed on the Merchants page, by name, sorted. */
async function shownMerchants(p: Page = page) {
  return (await p.locator('[data-testid="merchant-item"] .merchant-item-name').allTextContents()).sort();
}

/** Nothing of the panel is outside the window, and none of its controls lie on one another. */
async function panelFits() {
  return byTestId('workspace-panel').evaluate((panel) => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    const height = window.innerHeight;
    const box = panel.getBoundingClientRect();
    if (box.left < 0 || box.right > width + 1 || box.top < 0 || box.bottom > height + 1)
      problems.push(`panel ${JSON.stringify(box)} outside ${width}×${height}`);
    const controls = Array.from(panel.querySelectorAll('button, input, select')).filter(
      (el) => el.getBoundingClientRect().width > 0,
    );
    for (let i = 0; i < controls.length; i++) {
      for (let j = i + 1; j < controls.length; j++) {
        const a = controls[i]!.getBoundingClientRect();
        const b = controls[j]!.getBoundingClientRect();
        if (controls[i]!.contains(controls[j]!) || controls[j]!.contains(controls[i]!)) continue;
        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (x > 2 && y > 2)
          problems.push(`overlap: ${controls[i]!.textContent} × ${controls[j]!.textContent}`);
      }
      const r = controls[i]!.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1)
        problems.push(`sticks out: ${controls[i]!.textContent}`);
    }
    return problems;
  });
}

describe('workspaces in the dashboard', () => {
  it('creates a workspace from the switcher, with its own clock and its own merchants', async () => {
    await control('POST', '/sandbox/merchants', undefined, { name: 'Default Co' });
    await page.goto(`${dashboardUrl}#/merchants`);
    await byTestId('workspace-current')
      .filter({ hasText: /default/i })
      .waitFor();
    await page.getByTestId('merchant-item').filter({ hasText: 'Default Co' }).waitFor();

    // Create "QA" from the switcher: a frozen clock starting at a chosen moment.
    await openPanel();
    await byTestId('workspace-new').click();
    await byTestId('workspace-name-input').fill('QA');
    await byTestId('workspace-start-input').fill('2030-01-02T03:04:05');
    await byTestId('workspace-frozen-input').check();
    const created = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith('/sandbox/workspaces'),
    );
    await byTestId('workspace-create').click();
    expect((await created).postDataJSON()).toEqual({
      name: 'QA',
      clock: { start: '2030-01-02T03:04:05.000Z', frozen: true },
    });
    await byTestId('workspace-current').filter({ hasText: 'QA' }).waitFor();
    // Made and opened, the panel closes: wait for that, or the next openPanel finds it on its way out.
    await byTestId('workspace-panel').waitFor({ state: 'detached' });
    await byTestId('workspace-current-clock').filter({ hasText: '03:04:05' }).waitFor();
    expect(await byTestId('workspace-current-clock').textContent()).toContain('frozen');
    const qa = (await control<WorkspaceRecord[]>('GET', '/sandbox/workspaces')).find((w) => w.name === 'QA')!;
    expect(qa.id).toMatch(/^ws_/);
    // The address names it, for a reload or a link.
    expect(new URL(page.url()).searchParams.get('workspace')).toBe('QA');

    // Its own world: none of the default's merchants. One made here (the calls carry the header)
    // stays here.
    await expect.poll(() => shownMerchants(), { timeout: 5_000 }).toEqual([]);
    const merchantCall = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith('/sandbox/merchants'),
    );
    await byTestId('merchant-name-input').fill('QA Co');
    await byTestId('merchant-country-input').fill('GB');
    await byTestId('create-merchant-submit').click();
    expect((await (await merchantCall).allHeaders())[HEADER]).toBe(qa.id);
    await page.getByTestId('merchant-item').filter({ hasText: 'QA Co' }).waitFor();
    expect(await merchantNames(qa.id)).toEqual(['QA Co']);
    expect(await merchantNames()).toEqual(['Default Co']);

    // The list shows each workspace's clock: QA's frozen in 2030, the default's today.
    await openPanel();
    expect(await row('QA').getByTestId('workspace-clock').textContent()).toContain('02 Jan 2030 · 03:04:05');
    expect(await row('QA').textContent()).toContain('Frozen');
    await page.screenshot({ path: join(resultsDir, 'workspaces-panel-1440.png') });
  });

  it("moves one workspace's clock alone, switches between worlds, and follows only the open one's events and inbox", async () => {
    await control('POST', '/sandbox/merchants', undefined, { name: 'Default Co' });
    const qa = await control<WorkspaceRecord>('POST', '/sandbox/workspaces', undefined, {
      name: 'QA',
      clock: { start: '2030-01-02T03:04:05.000Z', frozen: true },
    });
    await control('POST', '/sandbox/merchants', qa.id, { name: 'QA Co' });

    // Its clock moves alone: +1 h in QA says what fell due there, and the default's time is not moved.
    await page.goto(`${dashboardUrl}?workspace=QA#/clock`);
    await byTestId('workspace-current-clock').filter({ hasText: '03:04:05' }).waitFor();
    await byTestId('clock-advance-hour').click();
    await byTestId('notice-success')
      .filter({ hasText: 'Clock advanced by 1 hour. Nothing fell due.' })
      .waitFor();
    await byTestId('workspace-current-clock').filter({ hasText: '04:04:05' }).waitFor();
    const defaultClock = await control<{ offset_ms: number }>('GET', '/sandbox/clock');
    expect(Math.abs(defaultClock.offset_ms)).toBeLessThan(60_000);
    await page.goto(`${dashboardUrl}?workspace=QA#/merchants`);
    await openPanel();

    // Switch to the default and back: each shows its own merchants.
    await switchTo((await byTestId('workspace-row').first().getAttribute('data-name'))!);
    expect(new URL(page.url()).searchParams.get('workspace')).toBeNull();
    await expect.poll(() => shownMerchants(), { timeout: 5_000 }).toEqual(['Default Co']);
    await switchTo('QA');
    await expect.poll(() => shownMerchants(), { timeout: 5_000 }).toEqual(['QA Co']);

    // The event stream is QA's: a script's merchant in QA shows up live, one in the default does not.
    await control('POST', '/sandbox/merchants', undefined, { name: 'Elsewhere Co' });
    await control('POST', '/sandbox/merchants', qa.id, { name: 'Live Co' });
    await expect.poll(() => shownMerchants(), { timeout: 5_000 }).toEqual(['Live Co', 'QA Co'].sort());
    expect(await shownMerchants()).not.toContain('Elsewhere Co');

    // The built-in inbox's address names the workspace (deliveries cannot carry the header).
    await page.goto(`${dashboardUrl}?workspace=QA#/webhooks`);
    await byTestId('workspace-current').filter({ hasText: 'QA' }).waitFor();
    expect(await byTestId('inbox-url').textContent()).toBe(
      `${sandbox.urls().test}/sandbox/inbox/demo?workspace=${qa.id}`,
    );
    // A delivery from QA to it lands in QA's inbox, not the default's.
    await byTestId('endpoint-use-inbox').click();
    await byTestId('endpoint-submit').click();
    const endpoint = byTestId('endpoint-row');
    await endpoint.waitFor();
    expect(await endpoint.getByTestId('endpoint-url').textContent()).toContain(`?workspace=${qa.id}`);
    await endpoint.getByTestId('endpoint-send-test').click();
    await byTestId('inbox-message').first().waitFor();
    expect(
      (await control<{ messages: unknown[] }>('GET', '/sandbox/inboxes/demo', qa.id)).messages,
    ).toHaveLength(1);
    expect((await control<{ messages: unknown[] }>('GET', '/sandbox/inboxes/demo')).messages).toHaveLength(0);
  });

  it('checkpoints, restores, forks and deletes a workspace from the panel', async () => {
    for (const name of ['Default Co', 'Elsewhere Co'])
      await control('POST', '/sandbox/merchants', undefined, { name });
    const qa = await control<WorkspaceRecord>('POST', '/sandbox/workspaces', undefined, { name: 'QA' });
    for (const name of ['QA Co', 'Live Co']) await control('POST', '/sandbox/merchants', qa.id, { name });
    await page.goto(`${dashboardUrl}?workspace=QA#/merchants`);
    await byTestId('workspace-current').filter({ hasText: 'QA' }).waitFor();
    await expect.poll(() => shownMerchants(), { timeout: 5_000 }).toEqual(['Live Co', 'QA Co'].sort());

    // A checkpoint, then a change, then back to the checkpoint.
    await openPanel();
    await byTestId('checkpoint-name-input').fill('two merchants');
    await byTestId('checkpoint-save').click();
    await page.locator('[data-testid="checkpoint-row"][data-name="two merchants"]').waitFor();
    await control('POST', '/sandbox/merchants', qa.id, { name: 'After Co' });
    await expect.poll(() => shownMerchants(), { timeout: 5_000 }).toContain('After Co');
    await openPanel();
    const checkpoint = page.locator('[data-testid="checkpoint-row"][data-name="two merchants"]');
    await checkpoint.getByTestId('checkpoint-restore').click();
    const question = await checkpoint.getByTestId('checkpoint-restore-question').textContent();
    expect(question).toContain('“QA”');
    expect(question).toContain('“two merchants”');
    await checkpoint.getByTestId('checkpoint-restore-confirm').click();
    await byTestId('notice-success').filter({ hasText: 'Restored checkpoint “two merchants”' }).waitFor();
    await expect.poll(() => shownMerchants(), { timeout: 5_000 }).toEqual(['Live Co', 'QA Co'].sort());
    expect(await merchantNames(qa.id)).toEqual(['Live Co', 'QA Co']);

    // Fork from the checkpoint: a new workspace with the checkpoint's data, opened.
    await openPanel();
    await checkpoint.getByTestId('checkpoint-fork').click();
    expect(await byTestId('workspace-source-select').inputValue()).toContain(qa.id);
    await byTestId('workspace-name-input').fill('QA fork');
    await byTestId('workspace-create').click();
    await byTestId('workspace-current').filter({ hasText: 'QA fork' }).waitFor();
    // Made and opened, the panel closes: wait for that, or the next openPanel finds it on its way out.
    await byTestId('workspace-panel').waitFor({ state: 'detached' });
    await expect.poll(() => shownMerchants(), { timeout: 5_000 }).toEqual(['Live Co', 'QA Co'].sort());
    const fork = (await control<WorkspaceRecord[]>('GET', '/sandbox/workspaces')).find(
      (w) => w.name === 'QA fork',
    )!;
    await control('POST', '/sandbox/merchants', fork.id, { name: 'Fork only Co' });
    expect(await merchantNames(qa.id)).toEqual(['Live Co', 'QA Co']);

    // Delete the fork (it is on screen: the dashboard goes back to the default first).
    await openPanel();
    await row('QA fork').getByTestId('workspace-delete').click();
    expect(await row('QA fork').getByTestId('workspace-delete-question').textContent()).toContain(
      '“QA fork”',
    );
    await row('QA fork').getByTestId('workspace-delete-confirm').click();
    await row('QA fork').waitFor({ state: 'detached' });
    await expect.poll(() => shownMerchants(), { timeout: 5_000 }).toEqual(['Default Co', 'Elsewhere Co']);
    expect((await control<WorkspaceRecord[]>('GET', '/sandbox/workspaces')).map((w) => w.name)).not.toContain(
      'QA fork',
    );
    // The default cannot be deleted: it offers no delete.
    expect(await byTestId('workspace-row').first().getByTestId('workspace-delete').count()).toBe(0);
  });

  it('reopens the last workspace after a reload, opens a linked one, and falls back when it is gone', async () => {
    const qa = await control<WorkspaceRecord>('POST', '/sandbox/workspaces', undefined, { name: 'Reopen' });
    await control('POST', '/sandbox/merchants', qa.id, { name: 'Reopen Co' });
    await page.goto(`${dashboardUrl}#/merchants`);
    await switchTo('Reopen');
    await page.getByTestId('merchant-item').filter({ hasText: 'Reopen Co' }).waitFor();

    // A reload, then the bare address (the browser remembers): still "Reopen".
    await page.reload();
    await byTestId('workspace-current').filter({ hasText: 'Reopen' }).waitFor();
    await page.goto(`${dashboardUrl}#/merchants`);
    await byTestId('workspace-current').filter({ hasText: 'Reopen' }).waitFor();
    await page.getByTestId('merchant-item').filter({ hasText: 'Reopen Co' }).waitFor();

    // The page itself opens whatever its address names (it reports a gone one); the API refuses.
    const byName = (url: string) => sandbox.apps.test.inject({ url });
    expect((await byName('/?workspace=Nowhere')).statusCode).toBe(200);
    expect((await byName('/sandbox/merchants?workspace=Nowhere')).statusCode).toBe(404);

    // Deleted while closed (by a script): the next start says so and shows the default.
    const closed = page.url();
    await page.goto('about:blank');
    await control('DELETE', `/sandbox/workspaces/${qa.id}`);
    await page.goto(closed);
    const gone = byTestId('notice-error').filter({
      hasText: 'The workspace “Reopen” is not in this sandbox any more',
    });
    await gone.waitFor();
    await byTestId('workspace-current')
      .filter({ hasText: /default/i })
      .waitFor();
    expect(new URL(page.url()).searchParams.get('workspace')).toBeNull();
    await dismissNotices(page);

    // Deleted while on screen: the dashboard notices (its stream or next call is refused), goes
    // back to the default and says so once, with no id in it.
    const shown = await control<WorkspaceRecord>('POST', '/sandbox/workspaces', undefined, { name: 'Shown' });
    await control('POST', '/sandbox/merchants', shown.id, { name: 'Shown Co' });
    await switchTo('Shown');
    await page.getByTestId('merchant-item').filter({ hasText: 'Shown Co' }).waitFor();
    await control('DELETE', `/sandbox/workspaces/${shown.id}`);
    await byTestId('notice-error')
      .filter({ hasText: 'The workspace “Shown” is not in this sandbox any more' })
      .waitFor();
    await byTestId('workspace-current')
      .filter({ hasText: /default/i })
      .waitFor();
    expect(await byTestId('notice-error').allTextContents()).toHaveLength(1);
    await expect.poll(() => shownMerchants(), { timeout: 5_000 }).toEqual([]);

    // A link names a workspace by name, whatever its case.
    await control('POST', '/sandbox/workspaces', undefined, { name: 'Linked Demo' });
    await page.goto(`${dashboardUrl}?workspace=linked%20demo#/merchants`);
    await byTestId('workspace-current').filter({ hasText: 'Linked Demo' }).waitFor();
  });

  it('makes a workspace from a bundle file, leaving the one it came from as it was', async () => {
    await control('POST', '/sandbox/merchants', undefined, { name: 'Exported Co' });
    const bundle = await sandbox.apps.test.inject({ url: '/sandbox/export' });
    expect(bundle.statusCode).toBe(200);
    await page.goto(`${dashboardUrl}#/merchants`);
    await page.getByTestId('merchant-item').filter({ hasText: 'Exported Co' }).waitFor();

    await openPanel();
    await byTestId('workspace-new').click();
    await byTestId('workspace-source-select').selectOption('bundle');
    await byTestId('workspace-name-input').fill('From bundle');
    await byTestId('workspace-create').click();
    expect(await byTestId('workspace-form-error').textContent()).toContain('bundle file');
    await byTestId('workspace-bundle-input').setInputFiles({
      name: 'bug.svcbundle',
      mimeType: 'application/octet-stream',
      buffer: bundle.rawPayload,
    });
    await byTestId('workspace-create').click();
    await byTestId('workspace-current').filter({ hasText: 'From bundle' }).waitFor();
    // Made and opened, the panel closes: wait for that, or the next openPanel finds it on its way out.
    await byTestId('workspace-panel').waitFor({ state: 'detached' });
    await byTestId('notice-success')
      .filter({ hasText: '“From bundle” created from the bundle: 1 merchant' })
      .waitFor();
    await expect.poll(() => shownMerchants(), { timeout: 5_000 }).toEqual(['Exported Co']);
    // Its own copy: a merchant added to it is not the default's.
    await control('POST', '/sandbox/merchants', 'From bundle', { name: 'Only here Co' });
    expect(await merchantNames('From bundle')).toEqual(['Exported Co', 'Only here Co']);
    expect(await merchantNames()).toEqual(['Exported Co']);

    // A file that is not a bundle: refused, and no empty workspace is left behind.
    await openPanel();
    await byTestId('workspace-new').click();
    await byTestId('workspace-source-select').selectOption('bundle');
    await byTestId('workspace-name-input').fill('Broken');
    await byTestId('workspace-bundle-input').setInputFiles({
      name: 'not.svcbundle',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('not a bundle'),
    });
    await byTestId('workspace-create').click();
    await byTestId('notice-error').first().waitFor();
    const names = (await control<WorkspaceRecord[]>('GET', '/sandbox/workspaces')).map((w) => w.name);
    expect(names).not.toContain('Broken');
    expect(await byTestId('workspace-current').textContent()).toBe('From bundle');
  });

  it('shows no workspace ids in presentation mode, and fits a laptop and a phone', async () => {
    const demo = await control<WorkspaceRecord>('POST', '/sandbox/workspaces', undefined, { name: 'Demo' });
    await control('POST', '/sandbox/checkpoints', demo.id, { name: 'start' });
    await page.goto(`${dashboardUrl}?workspace=Demo#/home`);
    await byTestId('workspace-current').filter({ hasText: 'Demo' }).waitFor();
    await openPanel();
    expect(await byTestId('workspace-panel').textContent()).toContain(demo.id);
    await byTestId('workspace-switcher').click();

    await byTestId('present-switch').check({ force: true });
    await openPanel();
    const start = page.locator('[data-testid="checkpoint-row"][data-name="start"]');
    await start.waitFor();
    expect(await page.locator('body').textContent()).not.toMatch(/ws_[0-9A-Za-z]{16}/);

    // A checkpoint deleted (after one more question) is gone; the workspace stays.
    await start.getByTestId('checkpoint-delete').click();
    expect(await start.getByTestId('checkpoint-delete-question').textContent()).toContain('“start”');
    await start.getByTestId('checkpoint-delete-confirm').click();
    await start.waitFor({ state: 'detached' });
    expect(await control<unknown[]>('GET', '/sandbox/checkpoints', demo.id)).toEqual([]);

    for (const [width, height] of [
      [1440, 900],
      [1024, 768],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await byTestId('workspace-switcher').click();
      await openPanel();
      await byTestId('workspace-new').click();
      await byTestId('workspace-form').waitFor();
      await dismissNotices(page);
      expect(await panelFits(), `${width}×${height}`).toEqual([]);
      await page.screenshot({ path: join(resultsDir, `workspaces-${width}x${height}.png`) });
    }
  });
});
