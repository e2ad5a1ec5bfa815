import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../server/sandbox.js';
import { createMerchant, inFuture, testSandbox } from '../../helpers/sandbox.js';

/** Reads server-sent events until `done` says enough, within a time bound. */
async function readStream(
  url: string,
  done: (messages: { event: string; data: Record<string, unknown> }[]) => boolean,
  act: () => Promise<void>,
) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 5000);
  const response = await fetch(url, { signal: controller.signal });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const messages: { event: string; data: Record<string, unknown> }[] = [];
  let buffer = '';
  const first = await reader.read();
  buffer += decoder.decode(first.value);
  await act();
  try {
    while (!done(messages)) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      buffer += decoder.decode(value, { stream: true });
      let cut = buffer.indexOf('\n\n');
      while (cut !== -1) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (event && data) messages.push({ event, data: JSON.parse(data) as Record<string, unknown> });
        cut = buffer.indexOf('\n\n');
      }
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return messages;
}

async function post(sandbox: Sandbox, url: string, payload: unknown) {
  return sandbox.apps.test.inject({ method: 'POST', url, payload: payload as Record<string, unknown> });
}

describe('live event stream', () => {
  it('streams every event and delivery attempt; the inbox keeps what arrived with a verified signature', async () => {
    const sandbox = await testSandbox();
    const urls = await sandbox.listen();
    const actor = await createMerchant(sandbox);
    const endpoint = (
      await post(sandbox, `/sandbox/merchants/${actor.merchantId}/webhook-endpoints`, {
        url: `${urls.test}/sandbox/inbox/demo`,
      })
    ).json();
    expect(endpoint.secret).toMatch(/^whsec_/);

    const messages = await readStream(
      `${urls.test}/sandbox/events?env=test`,
      (m) => m.some((x) => x.event === 'delivery'),
      async () => {
        const res = await sandbox.apps.test.inject({
          method: 'POST',
          url: '/v1/checkouts',
          headers: actor.auth,
          payload: { title: 'Live', amount: 20_000_000, expires_at: inFuture(sandbox) },
        });
        expect(res.statusCode).toBe(200);
      },
    );
    const created = messages.find((m) => m.event === 'event');
    expect(created?.data.type).toBe('checkout.created');
    const delivery = messages.find((m) => m.event === 'delivery');
    expect(delivery?.data.status).toBe('delivered');
    expect((delivery!.data.attempt as { response_status: number }).response_status).toBe(200);

    const inbox = (await sandbox.apps.test.inject({ url: '/sandbox/inboxes/demo' })).json();
    expect(inbox.messages).toHaveLength(1);
    expect(inbox.messages[0].signature_valid).toBe(true);
    expect(JSON.parse(inbox.messages[0].body).event).toBe('checkout.created');
    expect(inbox.messages[0].headers['x-svc-event']).toBe('checkout.created');
  });
});
