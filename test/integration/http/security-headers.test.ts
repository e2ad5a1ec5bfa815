import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { STRICT_CSP } from '../../../server/http/plugins/security-headers.js';
import { createMerchant, inFuture, testSandbox } from '../../helpers/sandbox.js';

// Security headers: a strict policy and no framing on the dashboard, /docs and the APIs; the
// hosted pages' own policy (their one inline script by hash), framed only where the settings say.

const directives = (csp: string | undefined): Map<string, string> =>
  new Map(
    (csp ?? '').split(';').flatMap((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return name ? [[name, values.join(' ')] as [string, string]] : [];
    }),
  );

async function hostedCheckout() {
  const sandbox = await testSandbox();
  const actor = await createMerchant(sandbox);
  const made = await sandbox.apps.test.inject({
    method: 'POST',
    url: '/v1/checkouts',
    headers: actor.auth,
    payload: { title: 'Framed?', amount: 5_000_000, expires_at: inFuture(sandbox) },
  });
  expect(made.statusCode).toBe(200);
  const checkout = made.json() as { id: string; hosted_url: string };
  return { sandbox, path: new URL(checkout.hosted_url).pathname };
}

describe('security headers', () => {
  it('serves the dashboard, /docs, the APIs and error answers with a strict policy and no framing', async () => {
    const sandbox = await testSandbox();
    for (const url of ['/', '/docs', '/docs/json', '/sandbox/health', '/v1/checkouts', '/nowhere']) {
      const answer = await sandbox.apps.test.inject({ url });
      const csp = directives(answer.headers['content-security-policy'] as string | undefined);
      expect(csp.get('default-src'), url).toBe("'self'");
      expect(csp.get('script-src'), url).toBe("'self'");
      expect(csp.get('frame-ancestors'), url).toBe("'none'");
      expect(answer.headers['x-frame-options'], url).toBe('DENY');
      expect(answer.headers['referrer-policy'], url).toBe('no-referrer');
      expect(answer.headers['x-content-type-options'], url).toBe('nosniff');
    }
    expect(STRICT_CSP).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('lets the hosted pages run only their own inline script, and refuses framing by default', async () => {
    const { sandbox, path } = await hostedCheckout();
    for (const url of [path, `${path}/fiat`]) {
      const page = await sandbox.apps.test.inject({ url });
      expect(page.statusCode).toBe(200);
      const csp = directives(page.headers['content-security-policy'] as string);
      const script = /<script>([\s\S]*?)<\/script>/.exec(page.body)![1]!;
      const hash = `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
      expect(csp.get('script-src'), url).toBe(hash);
      expect(csp.get('default-src'), url).toBe("'self'");
      expect(csp.get('frame-ancestors'), url).toBe("'none'");
      expect(page.headers['x-frame-options'], url).toBe('DENY');
      expect(page.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });

  it('lets the origins the settings name frame the hosted pages, and only those', async () => {
    const { sandbox, path } = await hostedCheckout();
    const patched = await sandbox.apps.test.inject({
      method: 'PATCH',
      url: '/sandbox/settings',
      payload: { hosted_pages_frame_ancestors: ['https://shop.example', 'http://127.0.0.1:3000'] },
    });
    expect(patched.statusCode).toBe(200);
    const page = await sandbox.apps.test.inject({ url: path });
    expect(directives(page.headers['content-security-policy'] as string).get('frame-ancestors')).toBe(
      'https://shop.example http://127.0.0.1:3000',
    );
    // X-Frame-Options cannot name origins: left out, so it does not refuse what the policy allows.
    expect(page.headers['x-frame-options']).toBeUndefined();
    // The dashboard is still never framed.
    expect((await sandbox.apps.test.inject({ url: '/' })).headers['x-frame-options']).toBe('DENY');

    const bad = await sandbox.apps.test.inject({
      method: 'PATCH',
      url: '/sandbox/settings',
      payload: { hosted_pages_frame_ancestors: ["https://a.example; script-src 'unsafe-inline'"] },
    });
    expect(bad.statusCode).toBe(422);
    expect((bad.json() as { error: string }).error).toMatch(/hosted_pages_frame_ancestors/);
  });
});
