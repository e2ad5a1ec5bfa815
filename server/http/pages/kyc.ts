import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { IdentityProvider } from '../../simulate/identity.js';
import { escapeHtml } from './html.js';

/** The sandbox's stand-in for the identity provider's hosted verification page. */
export interface KycPageRoutesDeps {
  identity: Pick<IdentityProvider, 'holderByKycToken'>;
}

export const kycPageRoutes: FastifyPluginAsyncTypebox<KycPageRoutesDeps> = async (app, { identity }) => {
  app.get(
    '/kyc/:token',
    {
      schema: {
        hide: true,
        params: Type.Object({ token: Type.String({ pattern: '^kyc_[A-Za-z0-9]{1,64}$' }) }),
      },
    },
    async (request, reply) => {
      const holder = identity.holderByKycToken(request.params.token);
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Identity verification</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1d2433}main{max-width:480px;margin:48px auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 2px 12px #0001}
button{padding:10px 18px;border-radius:8px;border:0;font-size:15px;cursor:pointer;margin-right:8px}.ok{background:#1f8a4c;color:#fff}.no{background:#c62f2f;color:#fff}.muted{color:#6b7385;font-size:13px}</style></head>
<body><main><h1>Verify your identity</h1><p class="muted">svc-sandbox stand-in for the identity provider. Nothing is uploaded.</p>
<p>Applicant: <b>${escapeHtml(holder.name)}</b> (${escapeHtml(holder.username)})</p>
<p>Status: <b data-testid="kyc-status">${escapeHtml(holder.kyc_status)}</b></p>
<p><button class="ok" data-testid="approve">Approve</button><button class="no" data-testid="reject">Reject</button></p>
<script>
for (const [id, result] of [['approve', 'approved'], ['reject', 'rejected']]) {
  document.querySelector('[data-testid=' + id + ']').onclick = async () => {
    const r = await fetch('/sandbox/cardholders/${holder.id}/kyc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ result }) });
    const j = await r.json();
    document.querySelector('[data-testid=kyc-status]').textContent = r.ok ? j.kyc_status : j.error;
  };
};
</script></main></body></html>`;
      return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(html);
    },
  );
};
