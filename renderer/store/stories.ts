import * as api from '../api/sandbox';
import type { Checkout, Env } from '../api/types';
import { formatMoney } from '../lib/format';
import { currentScope } from './merchant-scope';
import type { Slice, Store } from './types';

// Presenter helpers: one click plays a small story through the control API, step by step, with a
// caption the audience reads. Pausable; the pace is the pause after each step.

export type StoryId = 'pays' | 'part' | 'declined' | 'refund';

export const STORIES: { id: StoryId; label: string }[] = [
  { id: 'pays', label: 'Customer pays' },
  { id: 'part', label: 'Pays only part' },
  { id: 'declined', label: 'Card declined at a shop' },
  { id: 'refund', label: 'Refund' },
];

export const PACES = { slow: 3000, normal: 1500, fast: 500 } as const;
export type Pace = keyof typeof PACES;

interface Context {
  merchantId: string;
  env: Env;
  now: number;
  checkout?: Checkout;
}

interface Step {
  caption: string;
  run: (ctx: Context) => Promise<void>;
}

const AMOUNT = 120_000_000; // 120.00
const SHOPS = ['Corner Bakery', 'City Books', 'Harbour Café', 'Green Grocer'];

function newCheckout(title: string): Step {
  return {
    caption: `A customer orders “${title}” for ${formatMoney(AMOUNT, 'USDC')}: the shop asks for payment.`,
    run: async (ctx) => {
      ctx.checkout = await api.createCheckout(ctx.merchantId, ctx.env, {
        title,
        amount: AMOUNT,
        currency: 'USDC',
        expires_at: new Date(ctx.now + 3_600_000).toISOString(),
      });
    },
  };
}

const need = (ctx: Context) => {
  if (!ctx.checkout) throw new Error('the checkout was not created');
  return ctx.checkout;
};

const pay = (amount: number, caption: string): Step => ({
  caption,
  run: async (ctx) => {
    await api.simulatePayment(need(ctx).id, { amount });
  },
});

const settle: Step = {
  caption: 'The payment is confirmed and settles into the merchant’s balance.',
  run: async (ctx) => {
    await api.completeCheckout(need(ctx).id);
  },
};

/** An active card of the scope, for the card story. */
async function activeCard(merchantId: string, env: Env) {
  for (const holder of await api.listCardholders(merchantId, env)) {
    const detail = await api.getCardholder(holder.id);
    const card = detail.cards.find((c) => c.status === 'active');
    if (card) return { card, holder: detail.cardholder.name };
  }
  return null;
}

const STEPS: Record<StoryId, Step[]> = {
  pays: [
    newCheckout('Espresso machine'),
    pay(AMOUNT, `The customer pays ${formatMoney(AMOUNT, 'USDC')} in full.`),
    settle,
  ],
  part: [
    newCheckout('Team lunch'),
    pay(AMOUNT / 2, `The customer sends only ${formatMoney(AMOUNT / 2, 'USDC')}, half the price.`),
    {
      caption:
        'The payment window closes: the merchant keeps what arrived, and the order shows “paid in part”.',
      run: async (ctx) => {
        await api.expireCheckout(need(ctx).id);
      },
    },
  ],
  declined: [
    {
      caption: 'A cardholder tries to buy something far above their card’s limit…',
      run: async (ctx) => {
        const found = await activeCard(ctx.merchantId, ctx.env);
        if (!found) throw new Error('no active card here yet: issue one on the Cards page first');
        const shop = SHOPS[Math.floor(ctx.now / 1000) % SHOPS.length]!;
        const tx = await api.authorizeCard(found.card.id, {
          amount: Math.max(found.card.spend_tx_max, 0) + 1_000_000_000,
          merchant_name: shop,
          channel: 'present',
        });
        // Within the limits (a card without one) the network declines it by hand.
        if (tx.status !== 'declined') await api.decideCardTransaction(tx.id, 'decline');
      },
    },
    { caption: '…and the card network declines it at the shop’s till.', run: async () => undefined },
  ],
  refund: [
    newCheckout('Wireless headphones'),
    pay(AMOUNT, 'The customer pays.'),
    settle,
    {
      caption: `The customer returns it: the merchant refunds ${formatMoney(AMOUNT / 2, 'USDC')}, half the price.`,
      run: async (ctx) => {
        await api.refundCheckout(need(ctx).id, { amount: AMOUNT / 2, reason: 'Returned by the customer' });
      },
    },
  ],
};

export interface StoriesSlice {
  story: {
    id: StoryId;
    step: number;
    steps: number;
    caption: string;
    paused: boolean;
    /** Set when a step was refused: the caption says why. */
    failed: boolean;
    done: boolean;
  } | null;
  storyPace: Pace;
  playStory: (id: StoryId) => Promise<void>;
  pauseStory: (paused: boolean) => void;
  setStoryPace: (pace: Pace) => void;
  closeStory: () => void;
}

/** Waits `ms`, longer while paused; false when the story was closed meanwhile. */
async function wait(get: () => Store, ms: number, run: number): Promise<boolean> {
  let left = ms;
  while (left > 0 || get().story?.paused) {
    if (storyRun !== run) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
    if (!get().story?.paused) left -= 100;
  }
  return storyRun === run;
}

/** Which play is current: a second click (or close) ends the one before. */
let storyRun = 0;

export const createStoriesSlice: Slice<StoriesSlice> = (set, get) => ({
  story: null,
  storyPace: 'normal',
  playStory: async (id) => {
    const scope = currentScope(get());
    if (!scope) return;
    const run = ++storyRun;
    const steps = STEPS[id];
    const caption = (index: number) => ({
      id,
      step: index + 1,
      steps: steps.length,
      caption: steps[index]!.caption,
      paused: false,
      failed: false,
      done: false,
    });
    // The click shows its first caption at once, not the story before while the clock is read.
    set({ story: caption(0) });
    const clock = await api.getClock().catch(() => null);
    const ctx: Context = {
      merchantId: scope.merchantId,
      env: scope.env,
      now: clock ? Date.parse(clock.now) : Date.now(),
    };
    for (const [index, step] of steps.entries()) {
      if (storyRun !== run) return;
      // A pause set while the clock was read carries over to the first step.
      set((s) => ({ story: { ...caption(index), paused: index === 0 && s.story?.paused === true } }));
      // The caption shows first, then the step happens while the audience reads it.
      if (!(await wait(get, PACES[get().storyPace] / 2, run))) return;
      try {
        await step.run(ctx);
      } catch (error) {
        if (storyRun !== run) return;
        set((s) => ({
          story: s.story && { ...s.story, failed: true, caption: `Stopped: ${(error as Error).message}` },
        }));
        return;
      }
      if (!(await wait(get, PACES[get().storyPace], run))) return;
    }
    set((s) => ({ story: s.story && { ...s.story, done: true } }));
  },
  pauseStory: (paused) => set((s) => ({ story: s.story && { ...s.story, paused } })),
  setStoryPace: (pace) => set({ storyPace: pace }),
  closeStory: () => {
    storyRun += 1;
    set({ story: null });
  },
});
