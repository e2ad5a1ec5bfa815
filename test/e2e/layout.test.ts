/// <reference lib="dom" />
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDemo } from './demo.js';
import { call, dashboardUrl, page, resultsDir, sandbox, setupDashboard } from './harness.js';

// Every page at a desktop (1440 × 900), a small laptop (1024 × 768) and a phone (390 × 844), also in
// presentation mode: nothing off screen sideways,
// no two controls on top of each other, and (the harness checks it) no console error on any page.

setupDashboard();

interface Problem {
  kind: 'off-screen' | 'overlap';
  what: string;
}

/** Runs in the page: what sticks out of the viewport, and which controls overlap. */
function inspectLayout(): Problem[] {
  const problems: Problem[] = [];
  const width = document.documentElement.clientWidth;
  const name = (el: Element) =>
    `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[data-testid=${el.getAttribute('data-testid')}]` : ''} “${(el.textContent ?? '').trim().slice(0, 30)}”`;
  /** The part of the element its scrolling/clipping ancestors let show. */
  const visibleRect = (el: Element) => {
    const r = el.getBoundingClientRect();
    let left = r.left;
    let right = r.right;
    let top = r.top;
    let bottom = r.bottom;
    for (let p = el.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX !== 'visible') {
        const c = p.getBoundingClientRect();
        left = Math.max(left, c.left);
        right = Math.min(right, c.right);
      }
      if (style.overflowY !== 'visible') {
        const c = p.getBoundingClientRect();
        top = Math.max(top, c.top);
        bottom = Math.min(bottom, c.bottom);
      }
    }
    return { left, right, top, bottom };
  };
  if (document.documentElement.scrollWidth > width + 1) {
    problems.push({
      kind: 'off-screen',
      what: `page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`,
    });
  }
  const all = Array.from(document.querySelectorAll('body *')).filter((el) => {
    const style = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return style.visibility !== 'hidden' && style.display !== 'none' && r.width > 0 && r.height > 0;
  });
  for (const el of all) {
    const v = visibleRect(el);
    if (v.right <= v.left) continue; // scrolled out of sight inside its own scroll box
    if (v.left < -1 || v.right > width + 1) problems.push({ kind: 'off-screen', what: name(el) });
  }
  const controls = all.filter((el) => el.matches('a[href], button, input, select, textarea'));
  const rects = controls.map((el) => ({ el, r: visibleRect(el) }));
  for (let i = 0; i < rects.length; i++) {
    for (let j = i + 1; j < rects.length; j++) {
      const a = rects[i]!;
      const b = rects[j]!;
      if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const x = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const y = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (x > 2 && y > 2) problems.push({ kind: 'overlap', what: `${name(a.el)} × ${name(b.el)}` });
    }
  }
  return problems;
}

/** Some data on every page: a merchant with a checkout, a webhook endpoint and a cardholder. */
async function arrange() {
  const created = (
    await sandbox.apps.test.inject({
      method: 'POST',
      url: '/sandbox/merchants',
      payload: { name: 'Layout Co' },
    })
  ).json() as { merchant: { id: string }; api_key: { key: string } };
  const headers = { authorization: `Bearer ${created.api_key.key}` };
  const expires = new Date(Date.parse(sandbox.ctx.clock.nowIso()) + 3600_000).toISOString();
  for (const title of ['Layout order with a fairly long title', 'Second order']) {
    await sandbox.apps.test.inject({
      method: 'POST',
      url: '/v1/checkouts',
      headers,
      payload: { title, amount: 25_000_000, expires_at: expires },
    });
  }
  await sandbox.apps.test.inject({
    method: 'POST',
    url: `/sandbox/merchants/${created.merchant.id}/webhook-endpoints`,
    payload: { url: `${sandbox.urls().test}/sandbox/inbox/demo` },
  });
  await sandbox.apps.test.inject({
    method: 'POST',
    url: '/v1/cardholders',
    headers,
    payload: { name: 'Jane Doe' },
  });
  await sandbox.apps.test.inject({
    method: 'POST',
    url: `/sandbox/merchants/${created.merchant.id}/credit`,
    payload: { currency: 'USDC', amount: 250_000_000 },
  });
  // A fault rule (on a call nothing here makes), so the Faults page shows its table.
  await sandbox.apps.test.inject({
    method: 'PUT',
    url: '/sandbox/faults',
    payload: {
      seed: 'layout',
      rules: [
        {
          id: 'slow-payouts-in-production',
          match: { method: 'POST', path: '/v1/payouts', env: 'production' },
          rate: 0.25,
          count: 10,
          effect: { status: 429, retry_after_s: 30 },
        },
      ],
    },
  });
}

/** Waits until nothing on the page says "Loading…" (every page shows that while it reads its data). */
const loaded = (p: typeof page) =>
  p.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('Loading…'), undefined, {
    timeout: 15_000,
  });

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
];

describe('layout', () => {
  for (const viewport of SIZES) {
    it(`every page fits ${viewport.width}×${viewport.height}`, async () => {
      await arrange();
      await page.setViewportSize(viewport);
      const found: string[] = [];
      await page.goto(dashboardUrl);
      // Every page the sidebar offers (pages other areas add are checked too).
      const ids = await page
        .locator('nav a[data-testid^="nav-"]')
        .evaluateAll((links) => links.map((a) => (a.getAttribute('href') ?? '').replace('#/', '')));
      expect(ids.length).toBeGreaterThan(5);
      for (const id of ids) {
        await page.goto(`${dashboardUrl}#/${id}`);
        await page.getByTestId(`page-${id}`).waitFor();
        await page.waitForLoadState('networkidle');
        // A hash change is no new document, so the line above returns at once: the page's own
        // data may still be on its way. Its layout is checked as a user sees it, once loaded.
        await loaded(page);
        for (const problem of await page.evaluate(inspectLayout)) {
          found.push(`${id}: ${problem.kind} ${problem.what}`);
        }
      }
      expect(found.join('\n')).toBe('');
    });
  }

  it('presentation mode fits every size: the header switch, the stories and the home page', async () => {
    await arrange();
    await page.addInitScript(() => localStorage.setItem('svc-sandbox.presenting', '1'));
    const found: string[] = [];
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 1024, height: 768 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      for (const id of ['home', 'checkouts', 'cards', 'merchants']) {
        await page.goto(`${dashboardUrl}#/${id}`);
        await page.getByTestId(`page-${id}`).waitFor();
        await page.waitForLoadState('networkidle');
        await loaded(page);
        expect(await page.getByTestId('present-switch').isChecked()).toBe(true);
        for (const problem of await page.evaluate(inspectLayout)) {
          found.push(`${viewport.width} ${id}: ${problem.kind} ${problem.what}`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  for (const viewport of SIZES) {
    it(`at ${viewport.width}×${viewport.height} the refund form scrolls clear of the toasts and the recording banner`, async () => {
      await arrange();
      await sandbox.apps.test.inject({
        method: 'POST',
        url: '/sandbox/recording/start',
        payload: { name: 'layout' },
      });
      await page.setViewportSize(viewport);
      await page.goto(`${dashboardUrl}#/checkouts`);
      await page.getByTestId('checkout-row').first().click();
      await page.getByTestId('checkout-pay-full').click();
      await page.getByTestId('notice-success').first().waitFor();
      await page.getByTestId('recording-indicator').waitFor();
      // Scrolled to the form (to the middle of the screen, as a person brings it into view), and to
      // the end of the page as far as it goes: nothing sits on it either way.
      const covering = () =>
        page.evaluate(() => {
          const form = document.querySelector('[data-testid="refund-form"]')!.getBoundingClientRect();
          return ['.notices .notice', '[data-testid="recording-indicator"]'].flatMap((selector) =>
            Array.from(document.querySelectorAll(selector))
              .map((el) => el.getBoundingClientRect())
              .filter(
                (r) =>
                  r.left < form.right && r.right > form.left && r.top < form.bottom && r.bottom > form.top,
              )
              .map(() => selector),
          );
        });
      await page
        .getByTestId('refund-form')
        .evaluate((form) => form.scrollIntoView({ block: 'center', behavior: 'instant' }));
      expect(await covering()).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      expect(await covering()).toEqual([]);
    });

    it(`at ${viewport.width}×${viewport.height} keeps “Pay part” beside its amount`, async () => {
      await arrange();
      await page.setViewportSize(viewport);
      await page.goto(`${dashboardUrl}#/checkouts`);
      await page.getByTestId('checkout-row').first().click();
      const input = await page.getByTestId('checkout-pay-amount').boundingBox();
      const button = await page.getByTestId('checkout-pay-part').boundingBox();
      expect(input && button).toBeTruthy();
      // Same line: the button's vertical middle is within the input's height, and it is on one line.
      const middle = button!.y + button!.height / 2;
      expect(middle).toBeGreaterThan(input!.y);
      expect(middle).toBeLessThan(input!.y + input!.height);
      expect(button!.height).toBeLessThan(input!.height + 4);
    });

    it(`at ${viewport.width}×${viewport.height} the Fund form shows the business-wallet balance it draws on`, async () => {
      await arrange();
      await page.setViewportSize(viewport);
      await page.goto(`${dashboardUrl}#/cards`);
      const note = page.getByTestId('fund-available');
      await note.waitFor();
      // Layout Co's wallet was credited 250.00 USDC in arrange().
      await expect.poll(() => note.textContent()).toBe('Business wallet: 250.00 USDC available');
      const form = await page.getByTestId('fund-form').boundingBox();
      const box = await note.boundingBox();
      expect(box!.y).toBeGreaterThanOrEqual(form!.y);
      expect(box!.y + box!.height).toBeLessThanOrEqual(form!.y + form!.height + 1);
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
    });
  }

  it('at 1024×768 the selected checkout’s detail is in view beside the list', async () => {
    await arrange();
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`${dashboardUrl}#/checkouts`);
    await page.getByTestId('checkout-row').first().click();
    const detail = page.getByTestId('checkout-detail');
    await detail.waitFor();
    const box = await detail.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y).toBeLessThan(768);
    expect(box!.x + box!.width).toBeLessThanOrEqual(1024);
  });

  it('says clearly when the production environment is shown, and still fits a phone', async () => {
    await arrange();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${dashboardUrl}#/checkouts`);
    await page.getByTestId('scope-bar').waitFor();
    expect(await page.getByTestId('production-banner').count()).toBe(0);
    await page.getByTestId('scope-env-production').click();
    await page.getByTestId('production-banner').waitFor();
    expect(await page.getByTestId('production-banner').textContent()).toContain('Production environment');
    expect(await page.evaluate(inspectLayout)).toEqual([]);
  });
});

/** Runs in the page: the elements matching `selector` whose content is wider than their box (cut off, ellipsized or spilling into a neighbour). */
function spilling(selector: string): string[] {
  return Array.from(document.querySelectorAll(selector))
    .filter((el) => el.getBoundingClientRect().width > 0 && el.scrollWidth > el.clientWidth + 1)
    .map(
      (el) =>
        `${el.tagName.toLowerCase()} “${(el.textContent ?? '').trim().slice(0, 40)}” ${el.scrollWidth} > ${el.clientWidth}`,
    );
}

describe('layout with the demo’s data', () => {
  it('at 1440×900 and 390×844 every customer’s email stays in its own column', async () => {
    await buildDemo(sandbox);
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto(`${dashboardUrl}#/customers`);
      const rows = page.getByTestId('customer-row');
      await rows.first().waitFor();
      const found: string[] = [];
      for (let i = 0; i < (await rows.count()); i++) {
        await rows.nth(i).click();
        await page.getByTestId('customer-email').waitFor();
        found.push(...(await page.evaluate(spilling, '[data-testid="customer-detail"] .facts dd')));
      }
      await page.screenshot({ path: join(resultsDir, `layout-demo-customers-${viewport.width}.png`) });
      expect(found, `${viewport.width}`).toEqual([]);
    }
  });

  it('the invoice the Invoices page opens on shows its line items', async () => {
    await buildDemo(sandbox);
    await page.goto(`${dashboardUrl}#/invoices`);
    await page.getByTestId('invoice-row').first().click();
    await page.getByTestId('invoice-lines').waitFor();
    await page.getByTestId('invoice-line').first().waitFor();
    await page.screenshot({ path: join(resultsDir, 'layout-demo-invoice.png') });
    expect(await page.getByTestId('invoice-lines').textContent()).not.toContain('No line items');
  });

  it('at 1440×900 the deliveries table fits its card, every column whole, for every merchant', async () => {
    await buildDemo(sandbox);
    // A delivery still being retried, so the Next attempt column holds a time (its widest content).
    const merchants = await call<{ id: string }[]>(sandbox, 'GET', '/sandbox/merchants');
    for (const merchant of merchants) {
      const endpoints = await call<{ id: string; url: string }[]>(
        sandbox,
        'GET',
        `/sandbox/merchants/${merchant.id}/webhook-endpoints`,
      );
      for (const endpoint of endpoints.filter((e) => e.url.endsWith('/lumen-legacy'))) {
        await call(sandbox, 'POST', `/sandbox/webhook-endpoints/${endpoint.id}/test`, {});
        // And one whose last answer is a network error, not a status: the longest Last answer.
        const unreachable = await call<{ id: string }>(
          sandbox,
          'POST',
          `/sandbox/merchants/${merchant.id}/webhook-endpoints`,
          { url: 'http://127.0.0.1:9/webhooks/an-endpoint-that-is-not-listening' },
        );
        await call(sandbox, 'POST', `/sandbox/webhook-endpoints/${unreachable.id}/test`, {});
      }
    }
    await page.goto(`${dashboardUrl}#/webhooks`);
    await page.getByTestId('delivery-row').first().waitFor();
    const found: string[] = [];
    let checked = 0;
    for (const { id: merchant } of merchants) {
      await page.getByTestId('scope-merchant').selectOption(merchant);
      const [newest] = await call<{ id: string }[]>(
        sandbox,
        'GET',
        `/sandbox/deliveries?merchant_id=${merchant}&limit=1`,
      );
      if (!newest) continue;
      // This merchant's list is the one shown (not the previous merchant's, still on screen).
      await page.locator(`[data-testid="delivery-row"][data-delivery-id="${newest.id}"]`).waitFor();
      checked++;
      const table = await page
        .getByTestId('deliveries')
        .locator('.table-wrap')
        .evaluate((wrap) => ({ wrap: wrap.clientWidth, table: wrap.scrollWidth }));
      if (table.table > table.wrap) found.push(`${merchant}: table ${table.table} > card ${table.wrap}`);
      for (const cell of await page.evaluate(
        spilling,
        '[data-testid="deliveries"] th, [data-testid="deliveries"] td, [data-testid="deliveries"] td *',
      )) {
        found.push(`${merchant}: ${cell}`);
      }
      await page
        .getByTestId('deliveries')
        .screenshot({ path: join(resultsDir, `layout-demo-deliveries-${merchant}.png`) });
    }
    expect(checked, 'merchants with deliveries').toBeGreaterThan(1);
    expect(found.join('\n')).toBe('');
  });
});
