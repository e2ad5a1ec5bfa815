import { describe, expect, it } from 'vitest';
import { WEBHOOK_HEADER, WEBHOOK_USER_AGENT } from '../../server/contract/webhooks.js';
import {
  envelopeBody,
  envelopeHeaders,
  readHeaders,
  resourceOf,
  resourceOfData,
} from '../../server/webhooks/envelope.js';
import { sign, verify } from '../../server/webhooks/signing.js';

const ID = '00000000-0000-4000-8000-00000000000a';

describe('the webhook envelope', () => {
  it('the body is JSON.stringify({ id, event, data }) byte for byte, the data serialised once', () => {
    for (const data of [
      {
        id: 'chk_1',
        amount: 1_000_000,
        memo: 'é "q" \\ \u2028 </script> 😀',
        nested: { a: [1, null, true] },
      },
      {},
      { id: 42 },
    ]) {
      const body = envelopeBody(ID, 'checkout.paid', JSON.stringify(data));
      expect(body).toBe(JSON.stringify({ id: ID, event: 'checkout.paid', data }));
      expect(JSON.parse(body)).toEqual({ id: ID, event: 'checkout.paid', data });
    }
  });

  it('the headers, in order, read back by name; the signature is of the body', () => {
    const body = envelopeBody(ID, 'checkout.paid', '{"id":"chk_1"}');
    const signature = sign('whsec_x', body);
    const headers = envelopeHeaders('checkout.paid', ID, signature);
    expect(Object.keys(headers)).toEqual([
      'content-type',
      'user-agent',
      'x-svc-event',
      'x-svc-delivery-id',
      'x-svc-signature',
    ]);
    expect(headers['user-agent']).toBe(WEBHOOK_USER_AGENT);
    expect(headers[WEBHOOK_HEADER.signature]).toBe(signature);
    expect(readHeaders(headers)).toEqual({ event: 'checkout.paid', deliveryId: ID, signature });
    expect(verify('whsec_x', body, readHeaders(headers).signature)).toBe(true);
  });

  it("the resource that orders sends is data.id, else the event's id, from the data or the body", () => {
    expect(resourceOfData({ id: 'chk_1' }, 'evt')).toBe('chk_1');
    expect(resourceOfData({ id: 7 }, 'evt')).toBe('evt');
    expect(resourceOfData(null, 'evt')).toBe('evt');
    expect(resourceOf({ body: envelopeBody(ID, 'x', '{"id":"chk_2"}'), event_id: 'evt' })).toBe('chk_2');
    expect(resourceOf({ body: 'not json', event_id: 'evt' })).toBe('evt');
    expect(resourceOf({ body: 'null', event_id: 'evt' })).toBe('evt');
  });
});
