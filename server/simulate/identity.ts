import type { Clock } from '../clock.js';
import type { CardApplication, KycState } from '../contract/cards.js';
import type { CardholderRow, CardsRepo } from '../db/cards.js';
import { type CardService, toApplication } from '../domain/cards/service.js';
import { applicationStates, kycStates } from '../domain/state.js';
import { NotFoundError } from '../errors.js';

export interface IdentityDeps {
  repo: Pick<CardsRepo, 'findHolderByToken' | 'updateHolder' | 'findApplication' | 'updateApplication'>;
  cards: Pick<CardService, 'holderById'>;
  clock: Clock;
}

/**
 * The identity provider and the issuer's application review, played by the sandbox: KYC results
 * arrive (from the hosted provider page or the control API) and pending applications are decided.
 */
export class IdentityProvider {
  constructor(private readonly deps: IdentityDeps) {}

  /** The cardholder a verification session (the provider page's token) belongs to. */
  holderByKycToken(token: string): CardholderRow {
    const row = this.deps.repo.findHolderByToken(token);
    if (!row) throw new NotFoundError('Verification session', token);
    return row;
  }

  /** The provider's result arrives: is_kyc_verified flips without anyone polling. */
  kycResult(id: string, result: 'approved' | 'rejected'): KycState {
    const row = this.deps.cards.holderById(id);
    kycStates.assert(
      row.kyc_status,
      result,
      `Identity verification is already decided (status: ${row.kyc_status})`,
    );
    const next: CardholderRow = {
      ...row,
      is_kyc_verified: result === 'approved' ? 1 : 0,
      kyc_status: result,
      updated_at: this.deps.clock.nowIso(),
    };
    this.deps.repo.updateHolder(next);
    return { id: next.id, is_kyc_verified: next.is_kyc_verified === 1, kyc_status: next.kyc_status };
  }

  /** Manual review (settings.application_review = manual) decides a pending application. */
  review(applicationId: string, status: 'approved' | 'rejected'): CardApplication {
    const row = this.deps.repo.findApplication(applicationId);
    if (!row) throw new NotFoundError('Card application', applicationId);
    const next = {
      ...applicationStates.move(
        row,
        status,
        `Only a pending application can be reviewed (status: ${row.status})`,
      ),
      updated_at: this.deps.clock.nowIso(),
    };
    this.deps.repo.updateApplication(next);
    return toApplication(next);
  }
}
