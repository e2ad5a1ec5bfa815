/**
 * The identity provider's page script: the applicant approves or rejects through the control API,
 * and the page follows GET /kyc/{token}/status (every 800 ms), since a script or the dashboard may
 * decide meanwhile.
 */
import type { KycPageData, KycSessionState } from '../state.js';
import { byTestId, readData, WORKSPACE_BASE } from './dom.js';

type Tone = '' | 'ok' | 'bad' | 'muted';
type Shown = KycPageData['kyc_status'] | 'gone';

const S: KycPageData & { gone?: boolean } = readData<KycPageData>('kyc-state');

const LABELS: Record<Shown, [string, Tone]> = {
  not_started: ['Not started', 'muted'],
  pending: ['Pending review', ''],
  approved: ['Approved', 'ok'],
  rejected: ['Rejected', 'bad'],
  gone: ['Session ended', 'muted'],
};
const OUTCOMES: Partial<Record<Shown, [title: string, text: string, tone: Tone]>> = {
  approved: [
    'Identity verified',
    'The issuer now treats this cardholder as verified: a card application can go ahead.',
    'ok',
  ],
  rejected: [
    'Identity rejected',
    'The cardholder cannot apply for a card until a new verification is approved.',
    'bad',
  ],
  gone: ['This verification session has ended', 'A newer session replaced it, or the sandbox was reset.', ''],
};

const approve = byTestId<HTMLButtonElement>('approve');
const reject = byTestId<HTMLButtonElement>('reject');
const message = byTestId('message');

function render(): void {
  const status: Shown = S.gone ? 'gone' : S.kyc_status;
  const [label, tone] = LABELS[status] ?? [status, 'muted'];
  const pill = byTestId('kyc-status');
  pill.textContent = label;
  pill.className = `pill ${tone}`;
  pill.dataset.status = status;
  const outcome = OUTCOMES[status];
  const box = byTestId('outcome');
  box.hidden = !outcome;
  if (outcome) {
    byTestId('outcome-title').textContent = outcome[0];
    byTestId('outcome-text').textContent = outcome[1];
    box.dataset.tone = outcome[2];
  }
  // The provider can change its mind (the state table allows it), but not pick the same result twice.
  approve.disabled = !!S.gone || status === 'approved';
  reject.disabled = !!S.gone || status === 'rejected';
}

const update = (state: KycSessionState): void => {
  S.kyc_status = state.kyc_status;
  S.is_kyc_verified = state.is_kyc_verified;
  render();
};

function decide(result: 'approved' | 'rejected'): void {
  message.textContent = '';
  fetch(`${WORKSPACE_BASE}/sandbox/cardholders/${encodeURIComponent(S.holder_id)}/kyc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ result }),
  })
    .then(async (response) => {
      const answer = (await response.json().catch(() => ({}))) as Partial<KycSessionState> & {
        error?: string;
      };
      if (!response.ok || answer.kyc_status === undefined) {
        message.textContent = answer.error ?? `The sandbox refused (${response.status}).`;
        return;
      }
      update({ kyc_status: answer.kyc_status, is_kyc_verified: answer.is_kyc_verified ?? false });
    })
    .catch(() => {
      message.textContent = 'The sandbox did not answer.';
    });
}
approve.addEventListener('click', () => decide('approved'));
reject.addEventListener('click', () => decide('rejected'));

function poll(): void {
  fetch(`${WORKSPACE_BASE}/kyc/${encodeURIComponent(S.token)}/status`, { cache: 'no-store' })
    .then(
      async (response) => {
        if (response.status === 404) {
          S.gone = true;
          render();
          return false;
        }
        if (response.ok) update((await response.json()) as KycSessionState);
        return true;
      },
      () => true,
    )
    .then((more) => {
      if (more) setTimeout(poll, 800);
    });
}

render();
setTimeout(poll, 800);
