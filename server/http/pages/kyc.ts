import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Env } from '../../contract/common.js';
import type { SettingsService } from '../../domain/settings/service.js';
import type { IdentityProvider } from '../../simulate/identity.js';
import type { Use } from '../types.js';
import KYC_CSS from './client/kyc.css?page-style';
import KYC_SCRIPT from './client/kyc.ts?page-script';
import { escapeHtml, pageDocument, pagePolicy, scriptJson } from './html.js';
import { type KycPageData, KycSessionState } from './state.js';

/** The sandbox's stand-in for the identity provider's hosted verification page. */
export interface KycPageRoutesDeps {
  identity: Pick<IdentityProvider, 'holderByKycToken'>;
  settings: Pick<SettingsService, 'get'>;
}

/** The provider's view of the applicant (whatever the identity simulator returns for a session). */
type Applicant = ReturnType<IdentityProvider['holderByKycToken']>;

const TokenParams = Type.Object({ token: Type.String({ pattern: '^kyc_[A-Za-z0-9]{1,64}$' }) });

const stateOf = (holder: Applicant) => ({
  kyc_status: holder.kyc_status,
  is_kyc_verified: holder.is_kyc_verified === 1,
});

const SHIELD =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"><path d="M12 3l7 3v6c0 4.4-3 7.7-7 9-4-1.3-7-4.6-7-9V6z"/><path d="M9 12l2 2 4-4"/></svg>';

function kycPage(holder: Applicant, token: string, env: Env): string {
  const initial = (holder.name.trim().charAt(0) || '?').toUpperCase();
  const data: KycPageData = { holder_id: holder.id, token, ...stateOf(holder) };
  return pageDocument({
    title: 'Verify your identity · Sandbox ID',
    css: KYC_CSS,
    body: `<div class="page">
<header class="topbar"><div class="idp"><div class="idp-logo" aria-hidden="true">${SHIELD}</div>
<div class="idp-name">Sandbox ID<small>Identity verification provider</small></div></div>
<span class="badge" data-testid="env-badge">${env === 'test' ? 'Test mode' : 'Sandbox production'}</span></header>
<main class="card">
<div><h1>Verify your identity</h1><p class="muted small">A simulated verification: no document or photo is taken, nothing leaves this machine.</p></div>
<div class="applicant"><div class="applicant-avatar" aria-hidden="true">${escapeHtml(initial)}</div>
<div class="applicant-text"><div class="applicant-name" data-testid="applicant">${escapeHtml(holder.name)}</div>
<div class="small muted">@${escapeHtml(holder.username)}${holder.email ? ` · ${escapeHtml(holder.email)}` : ''}</div></div>
<span class="pill" data-testid="kyc-status" data-status="${escapeHtml(holder.kyc_status)}" style="margin-left:auto">${escapeHtml(holder.kyc_status)}</span></div>
<ol class="steps"><li><span class="dot">1</span><span>Identity document (passport, ID card or driving licence)</span></li>
<li><span class="dot">2</span><span>Selfie liveness check</span></li>
<li><span class="dot">3</span><span>The provider's decision, sent to the issuer at once</span></li></ol>
<div class="outcome" data-testid="outcome" hidden><div><b data-testid="outcome-title"></b><span data-testid="outcome-text"></span></div></div>
<div><p class="small muted" style="margin-bottom:10px">Play the provider: choose the result of the checks.</p>
<div class="decision"><button type="button" class="btn ok" data-testid="approve">Approve identity</button>
<button type="button" class="btn bad" data-testid="reject">Reject identity</button></div></div>
<p class="message" data-testid="message" role="status"></p>
</main>
<footer class="footer">svc-sandbox identity provider · test data only</footer></div>
<script type="application/json" id="kyc-state">${scriptJson(data)}</script>`,
    script: KYC_SCRIPT,
  });
}

export const kycPageRoutes: FastifyPluginAsyncTypebox<{ use: Use<KycPageRoutesDeps>; env: Env }> = async (
  app,
  { use, env },
) => {
  const noStore = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store');
  app.get('/kyc/:token', { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    const holder = use(request).identity.holderByKycToken(request.params.token);
    return noStore(reply)
      .type('text/html; charset=utf-8')
      .header(
        'Content-Security-Policy',
        pagePolicy(KYC_SCRIPT, use(request).settings.get().hosted_pages_frame_ancestors),
      )
      .send(kycPage(holder, request.params.token, env));
  });
  app.get(
    '/kyc/:token/status',
    { schema: { hide: true, params: TokenParams, response: { 200: KycSessionState } } },
    async (request, reply) => {
      noStore(reply);
      return stateOf(use(request).identity.holderByKycToken(request.params.token));
    },
  );
};
