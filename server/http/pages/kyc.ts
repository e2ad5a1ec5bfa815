import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { KycStatus } from '../../contract/cards.js';
import type { Env } from '../../contract/common.js';
import type { IdentityProvider } from '../../simulate/identity.js';
import { escapeHtml, pageDocument, scriptJson } from './html.js';

/** The sandbox's stand-in for the identity provider's hosted verification page. */
export interface KycPageRoutesDeps {
  identity: Pick<IdentityProvider, 'holderByKycToken'>;
  /** the listener's environment (for the badge) */
  env: Env;
}

/** The provider's view of the applicant (whatever the identity simulator returns for a session). */
type Applicant = ReturnType<IdentityProvider['holderByKycToken']>;

const TokenParams = Type.Object({ token: Type.String({ pattern: '^kyc_[A-Za-z0-9]{1,64}$' }) });

/** What the page follows live (GET /kyc/{token}/status). Hidden from the API document like the page. */
export const KycSessionState = Type.Object({ kyc_status: KycStatus, is_kyc_verified: Type.Boolean() });

const stateOf = (holder: Applicant) => ({
  kyc_status: holder.kyc_status,
  is_kyc_verified: holder.is_kyc_verified === 1,
});

const CSS = `
.page{max-width:560px}
.idp{display:flex;align-items:center;gap:10px;min-width:0}
.idp-logo{flex:none;width:36px;height:36px;border-radius:10px;display:grid;place-items:center;background:#0f766e;color:#fff}
.idp-logo svg{width:20px;height:20px}
.idp-name{font-weight:650;font-size:16px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.idp-name small{display:block;font-weight:500;font-size:12px;color:var(--muted)}
.card{background:var(--panel);border:1px solid var(--line);border-radius:16px;box-shadow:0 1px 2px rgba(16,24,40,.04),0 16px 40px -16px rgba(16,24,40,.16);padding:28px;display:flex;flex-direction:column;gap:18px}
.card h1{font-size:21px;font-weight:650}
.applicant{display:flex;align-items:center;gap:14px;padding:14px;border:1px solid var(--line);border-radius:12px;background:#fbfcfd;min-width:0}
.applicant-avatar{flex:none;width:44px;height:44px;border-radius:50%;display:grid;place-items:center;background:#e6f4f2;color:#0f766e;font-weight:650}
.applicant-text{min-width:0}
.applicant-name{font-weight:600}
.steps{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:10px}
.steps li{display:flex;gap:10px;align-items:flex-start;font-size:14px}
.steps .dot{flex:none;width:22px;height:22px;border-radius:50%;display:grid;place-items:center;font-size:12px;font-weight:700;background:#e6f4f2;color:#0f766e}
.decision{display:grid;grid-template-columns:1fr 1fr;gap:10px}
.decision .btn{width:100%}
.outcome{display:flex;align-items:center;gap:12px;padding:14px;border-radius:12px;background:var(--bg)}
.outcome[data-tone=ok]{background:var(--ok-soft);color:var(--ok)}
.outcome[data-tone=bad]{background:var(--bad-soft);color:var(--bad)}
.outcome[hidden]{display:none}
.outcome b{display:block}
.outcome span{font-size:13px;color:var(--ink)}
.message:empty{display:none}
.message{color:var(--bad);font-size:14px}
@media (max-width:600px){.card{padding:20px}.decision{grid-template-columns:1fr}}
`;

const SHIELD =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"><path d="M12 3l7 3v6c0 4.4-3 7.7-7 9-4-1.3-7-4.6-7-9V6z"/><path d="M9 12l2 2 4-4"/></svg>';

function kycPage(holder: Applicant, token: string, env: Env): string {
  const initial = (holder.name.trim().charAt(0) || '?').toUpperCase();
  return pageDocument({
    title: 'Verify your identity · Sandbox ID',
    css: CSS,
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
<script type="application/json" id="kyc-state">${scriptJson({ holder_id: holder.id, token, ...stateOf(holder) })}</script>`,
    script: KYC_SCRIPT,
  });
}

const KYC_SCRIPT = `
(function () {
  'use strict';
  var S = JSON.parse(document.getElementById('kyc-state').textContent);
  var one = function (id) { return document.querySelector('[data-testid="' + id + '"]'); };
  var LABELS = {
    not_started: ['Not started', 'muted'], pending: ['Pending review', ''],
    approved: ['Approved', 'ok'], rejected: ['Rejected', 'bad'], gone: ['Session ended', 'muted']
  };
  var OUTCOMES = {
    approved: ['Identity verified', 'The issuer now treats this cardholder as verified: a card application can go ahead.', 'ok'],
    rejected: ['Identity rejected', 'The cardholder cannot apply for a card until a new verification is approved.', 'bad'],
    gone: ['This verification session has ended', 'A newer session replaced it, or the sandbox was reset.', '']
  };
  function render() {
    var status = S.gone ? 'gone' : S.kyc_status, l = LABELS[status] || [status, 'muted'];
    var pill = one('kyc-status');
    pill.textContent = l[0];
    pill.className = 'pill ' + l[1];
    pill.dataset.status = status;
    var o = OUTCOMES[status], box = one('outcome');
    box.hidden = !o;
    if (o) { one('outcome-title').textContent = o[0]; one('outcome-text').textContent = o[1]; box.dataset.tone = o[2]; }
    // The provider can change its mind (the state table allows it), but not pick the same result twice.
    one('approve').disabled = !!S.gone || status === 'approved';
    one('reject').disabled = !!S.gone || status === 'rejected';
  }
  function decide(result) {
    one('message').textContent = '';
    fetch('/sandbox/cardholders/' + encodeURIComponent(S.holder_id) + '/kyc', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ result: result })
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) {
        if (!r.ok) { one('message').textContent = j.error || 'The sandbox refused (' + r.status + ').'; return; }
        S.kyc_status = j.kyc_status; S.is_kyc_verified = j.is_kyc_verified; render();
      });
    }).catch(function () { one('message').textContent = 'The sandbox did not answer.'; });
  }
  one('approve').addEventListener('click', function () { decide('approved'); });
  one('reject').addEventListener('click', function () { decide('rejected'); });
  // Live: a script (or the dashboard) may decide meanwhile.
  function poll() {
    fetch('/kyc/' + encodeURIComponent(S.token) + '/status', { cache: 'no-store' })
      .then(function (r) {
        if (r.status === 404) { S.gone = true; render(); return false; }
        if (r.ok) return r.json().then(function (j) { S.kyc_status = j.kyc_status; S.is_kyc_verified = j.is_kyc_verified; render(); return true; });
        return true;
      }, function () { return true; })
      .then(function (more) { if (more) setTimeout(poll, 800); });
  }
  render();
  setTimeout(poll, 800);
})();
`;

export const kycPageRoutes: FastifyPluginAsyncTypebox<KycPageRoutesDeps> = async (app, { identity, env }) => {
  const noStore = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store');
  app.get('/kyc/:token', { schema: { hide: true, params: TokenParams } }, async (request, reply) => {
    const holder = identity.holderByKycToken(request.params.token);
    return noStore(reply)
      .type('text/html; charset=utf-8')
      .send(kycPage(holder, request.params.token, env));
  });
  app.get(
    '/kyc/:token/status',
    { schema: { hide: true, params: TokenParams, response: { 200: KycSessionState } } },
    async (request, reply) => {
      noStore(reply);
      return stateOf(identity.holderByKycToken(request.params.token));
    },
  );
};
