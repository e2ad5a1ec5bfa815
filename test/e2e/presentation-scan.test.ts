/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../server/contract/events.js';
import { formatTimestamp } from '../../server/format/dates.js';
import { buildDemo } from './demo.js';
import { call, dashboardUrl, networkQuiet, page, sandbox, setupDashboard } from './harness.js';

// Presentation mode as a customer sees it, on the demo, at a desktop (1440 × 900) and a phone
// (390 × 844): every page the dashboard has (read from the sidebar, so a new page is scanned too)
// shows no developer word (an event type, an HTTP status, a signature, an API key, an id, a local
// address, a secret), nothing wider than its card or the window, no word broken where it may not
// break, and no disabled action beside the badge that already says its state; on a phone the home
// page shows the balances in its first screen. The hosted checkout page shows no id and says one
// thing about expiry. Screenshots of every page go to /tmp/presentation-shots/.

setupDashboard();

const SHOTS = '/tmp/presentation-shots';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What a customer must not read, each with what it is. */
const DEVELOPER_WORDS: [string, RegExp][] = [
  // Every event type the contract lists (a type it gains is caught as well).
  ['an event type', new RegExp(`\\b(?:${EVENT_TYPES.map(escapeRegExp).join('|')})\\b`)],
  ['an HTTP status', /\bHTTP\b|\banswered \d{3}\b/i],
  ['a signature', /\bsignature/i],
  ['an API key', /\bAPI[- ]keys?\b|\bsvc[a-z]_|\bsk_/i],
  ['a raw id', /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i],
  ['a local address', /localhost|127\.0\.0\.1/i],
  ['a signing secret', /whsec_/i],
];

/** Each developer word in `text` (once a word), with some text around it. */
function developerWords(text: string): string[] {
  const found = new Map<string, string>();
  for (const [what, pattern] of DEVELOPER_WORDS) {
    for (const match of text.matchAll(new RegExp(pattern.source, `${pattern.flags}g`))) {
      if (found.has(match[0])) continue;
      const around = text.slice(Math.max(0, match.index - 40), match.index + 40).replace(/\s+/g, ' ');
      found.set(match[0], `${what} (${match[0]}): …${around}…`);
    }
  }
  return [...found.values()];
}

/** What a person reads on the page: its text, and the hints in its empty fields. */
const shownText = () =>
  page.evaluate(() =>
    [
      document.body.innerText,
      ...Array.from(document.querySelectorAll<HTMLInputElement>('input[placeholder], textarea[placeholder]'))
        .filter((el) => el.offsetParent !== null && el.value === '')
        .map((el) => el.placeholder),
    ].join('\n'),
  );

/**
 * Runs in the page: what does not fit. The page wider than the window; a card whose content is
 * wider than it (a table or a line that should scroll inside it or wrap: an element that scrolls by
 * design, overflow-x auto or scroll, keeps its content to itself, so it does not count); a word
 * broken across lines inside it (an email or a postal address breaks at a space, an @, a dot or a
 * dash; only a long run of letters and digits with no such place, a chain address, may break
 * anywhere); a disabled action beside a badge saying its state.
 */
function inspectFit(): string[] {
  const problems: string[] = [];
  const name = (el: Element) =>
    `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} “${(el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}”`;
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1)
    problems.push(`the page is wider than the window: ${root.scrollWidth} > ${root.clientWidth}`);
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  for (const card of Array.from(document.querySelectorAll('.card, .kpi'))) {
    if (!(card instanceof HTMLElement) || !shown(card)) continue;
    if (card.scrollWidth <= card.clientWidth + 1) continue;
    // Name what sticks out the most: the element the reader sees cut off or spilling over.
    const edge = card.getBoundingClientRect().right;
    let widest: Element = card;
    let most = 0;
    for (const el of Array.from(card.querySelectorAll('*'))) {
      const over = el.getBoundingClientRect().right - edge;
      if (over > most + 0.5) {
        most = over;
        widest = el;
      }
    }
    problems.push(
      `wider than its card (${card.scrollWidth} > ${card.clientWidth}): ${name(widest)} in ${name(card)}`,
    );
  }
  // A disabled action beside the badge that says it is done ("Approve KYC" by "KYC approved"):
  // its verb's past participle in a badge of the same card.
  for (const button of Array.from(document.querySelectorAll('main button:disabled'))) {
    const verb = (button.textContent ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
    if (verb.length < 3 || !shown(button)) continue;
    const done = new RegExp(`\\b${verb.replace(/e$/, '').replace(/y$/, 'i')}e?d\\b`, 'i');
    const card = button.closest('.card') ?? button.parentElement;
    const badge = Array.from(card?.querySelectorAll('.badge, .pill') ?? []).find(
      (b) => shown(b) && done.test(b.textContent ?? ''),
    );
    if (badge) problems.push(`a disabled action beside its state: ${name(button)} by ${name(badge)}`);
  }
  // Words broken mid-word: in each text node that takes more than one line, the characters on
  // either side of every line break.
  const walker = document.createTreeWalker(
    document.querySelector('main') ?? document.body,
    NodeFilter.SHOW_TEXT,
  );
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    if (text.trim().length < 2 || !node.parentElement || !shown(node.parentElement)) continue;
    range.selectNodeContents(node);
    const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
    if (lines.size < 2) continue;
    let top: number | null = null;
    for (let i = 0; i < text.length; i++) {
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect || rect.width === 0) continue;
      if (top !== null && rect.top > top + 2) {
        const before = text[i - 1] ?? '';
        const after = text[i] ?? '';
        const word = /[\p{L}\p{N}]/u;
        if (word.test(before) && word.test(after)) {
          const start = text.slice(0, i).search(/[\p{L}\p{N}]+$/u);
          const end = i + (text.slice(i).match(/^[\p{L}\p{N}]+/u)?.[0].length ?? 0);
          // A long run with nowhere else to break (a chain address, a hash) may break anywhere.
          if (end - start < 24)
            problems.push(
              `a word broken across lines: “${text.slice(Math.max(0, start - 10), i)}⏎${text.slice(i, end + 10)}” in ${name(node.parentElement)}`,
            );
        }
      }
      top = rect.top;
    }
  }
  return problems;
}

const settle = async () => {
  await page.waitForFunction(() => !document.querySelector('[data-testid="page-loading"]'));
  await page.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('Loading…'));
  await networkQuiet(page);
};

/** Every route the sidebar offers outside presentation mode (the developer pages too). */
async function everyRoute(): Promise<string[]> {
  await page.goto(dashboardUrl);
  await page.locator('nav a[data-testid^="nav-"]').first().waitFor();
  return page
    .locator('nav a[data-testid^="nav-"]')
    .evaluateAll((links) => links.map((a) => (a.getAttribute('href') ?? '').replace('#/', '')));
}

/** The demo, presentation mode switched on, and every page's route. */
async function presenting(viewport: { width: number; height: number }): Promise<string[]> {
  await buildDemo(sandbox);
  await page.setViewportSize(viewport);
  const routes = await everyRoute();
  expect(routes.length).toBeGreaterThan(10);
  await page.getByTestId('present-switch').check({ force: true });
  return routes;
}

/**
 * What opens in place on a page, and shows more words when opened: a delivery's attempts, an inbox
 * message (the first of each).
 */
const OPENS: Record<string, string[]> = {
  webhooks: ['[data-testid="delivery-toggle"]', '[data-testid="inbox-message"] button[aria-expanded]'],
};

/** Opens each route in turn and collects what is wrong on it (each problem once a page). */
async function scan(routes: string[], width: number): Promise<string[]> {
  mkdirSync(SHOTS, { recursive: true });
  const found = new Set<string>();
  const look = async (where: string) => {
    for (const word of developerWords(await shownText())) found.add(`${where}: ${word}`);
    for (const problem of await page.evaluate(inspectFit)) found.add(`${where}: ${problem}`);
  };
  for (const route of routes) {
    await page.goto(`${dashboardUrl}#/${route}`);
    await page.getByTestId(`page-${route}`).waitFor();
    await settle();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, `${route}-${width}.png`), fullPage: true });
    await look(`${route} at ${width}`);
    for (const [i, selector] of (OPENS[route] ?? []).entries()) {
      await page.locator(selector).first().click();
      await settle();
      await page.locator(selector).first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, `${route}-${width}-open-${i + 1}.png`) });
      await look(`${route} at ${width}`);
    }
  }
  return [...found];
}

describe('presentation mode, page by page', () => {
  it('at 1440 × 900: no developer word, nothing wider than its card', async () => {
    const routes = await presenting({ width: 1440, height: 900 });
    expect(await scan(routes, 1440)).toEqual([]);
  }, 90_000);

  it('at 390 × 844: no developer word, nothing wider than its card, the balances in the first screen', async () => {
    const routes = await presenting({ width: 390, height: 844 });
    const found = await scan(routes, 390);
    // The home page's balances, whole, in the first screen: a presenter need not scroll to the money.
    await page.goto(`${dashboardUrl}#/home`);
    await page.getByTestId('home-balances').waitFor();
    await settle();
    await page.evaluate(() => window.scrollTo(0, 0));
    const balances = (await page.getByTestId('home-balances').boundingBox())!;
    if (balances.y + balances.height > 844)
      found.push(
        `home at 390: the balances end ${Math.round(balances.y + balances.height)} px down, below the first screen (844)`,
      );
    expect(found).toEqual([]);
  }, 90_000);
});

interface Checkout {
  id: string;
  hosted_url: string;
  status: string;
  reference: string | null;
  expires_at: string;
}

/** The times the page writes ("03 Dec 2026, 01:45 UTC"), as epoch ms. */
const timesIn = (text: string) =>
  [...text.matchAll(/\b(\d{2} \w{3} \d{4}), (\d{2}:\d{2})(?::\d{2})? UTC\b/g)].map((m) =>
    Date.parse(`${m[1]} ${m[2]} UTC`),
  );

describe('the hosted checkout page a customer is shown', () => {
  it('names the order by its reference, shows no id, and says one thing about expiry', async () => {
    await buildDemo(sandbox);
    const merchants = await call<{ id: string; name: string }[]>(sandbox, 'GET', '/sandbox/merchants');
    const northwind = merchants.find((m) => m.name === 'Northwind Coffee')!;
    const checkouts = await call<Checkout[]>(
      sandbox,
      'GET',
      `/sandbox/merchants/${northwind.id}/checkouts?env=test&limit=100`,
    );
    // "Pays only part": half paid, then the window closed early (its expiry time is still ahead).
    const part = await call<Checkout>(
      sandbox,
      'POST',
      `/sandbox/merchants/${northwind.id}/checkouts?env=test`,
      {
        title: 'Team lunch',
        reference: 'NW-2001',
        amount: 120_000_000,
        currency: 'USDC',
        expires_at: new Date(sandbox.ctx.clock.now() + 3_600_000).toISOString(),
      },
    );
    await call(sandbox, 'POST', `/sandbox/checkouts/${part.id}/payments`, { amount: 60_000_000 });
    const closed = await call<Checkout>(sandbox, 'POST', `/sandbox/checkouts/${part.id}/expire`);
    const ranOut = checkouts.find((c) => c.status === 'expired' && c.reference !== null)!;
    const open = checkouts.find((c) => c.status === 'active' && c.reference !== null)!;

    const problems: string[] = [];
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      for (const checkout of [closed, ranOut, open]) {
        const where = `${checkout.reference} (${checkout.status}) at ${viewport.width}`;
        await page.goto(checkout.hosted_url);
        await page.locator('body[data-phase]').waitFor();
        const text = await page.evaluate(() => document.body.innerText);
        const id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.exec(text);
        if (id) problems.push(`${where}: an id, ${id[0]}`);
        if (!text.includes(checkout.reference!)) problems.push(`${where}: no reference`);
        const now = sandbox.ctx.clock.now();
        const phase = await page.locator('body').getAttribute('data-phase');
        const expiresAt = formatTimestamp(checkout.expires_at);
        if (phase === 'expired') {
          // Expired: no line says when it will expire, and no time on the page is still to come.
          const line = /.*\bExpires\b.*/.exec(text);
          if (line) problems.push(`${where}: expired, yet “${line[0].trim()}”`);
          for (const t of timesIn(text).filter((at) => at > now))
            problems.push(`${where}: expired, yet names a time to come, ${formatTimestamp(t)}`);
          // One that ran out says when, from its expiry time.
          if (Date.parse(checkout.expires_at) <= now && !text.includes(expiresAt))
            problems.push(`${where}: does not say it expired ${expiresAt}`);
        } else if (phase !== 'open') {
          problems.push(`${where}: ${phase}, not open`);
        } else if (!text.includes(expiresAt)) {
          problems.push(`${where}: does not say it expires ${expiresAt}`);
        }
        await page.screenshot({
          path: join(SHOTS, `hosted-${checkout.status}-${viewport.width}.png`),
          fullPage: true,
        });
      }
    }
    expect(problems).toEqual([]);
  });
});
