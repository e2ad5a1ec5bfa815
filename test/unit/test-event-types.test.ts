import { describe, expect, it } from 'vitest';
import { defaultTestType, TEST_EVENT_TYPES as offered } from '../../renderer/pages/Webhooks/events.js';
import { TEST_EVENT_TYPES } from '../../server/contract/webhooks.js';

describe('test event types', () => {
  it('the dashboard offers exactly the types the server can send as a test event', () => {
    expect([...offered]).toEqual(TEST_EVENT_TYPES);
  });

  it('defaults like the server: the first subscribed type with a sample, else checkout.created', () => {
    expect(defaultTestType(['payout.failed', 'card.created', 'checkout.paid'])).toBe('checkout.paid');
    expect(defaultTestType(['deposit.received'])).toBe('deposit.received');
    expect(defaultTestType(['*'])).toBe('checkout.created');
    expect(defaultTestType(['invoice.paid'])).toBe('checkout.created');
  });
});
