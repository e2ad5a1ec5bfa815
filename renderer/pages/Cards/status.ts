import type { ApplicationStatus, CardStatus, CardTransactionStatus, KycStatus } from '../../api/types';
import type { Tone } from '../../components/StatusBadge';

export const CARD_TONE: Record<CardStatus, Tone> = {
  active: 'success',
  notActivated: 'warning',
  locked: 'info',
  canceled: 'neutral',
};

export const TX_TONE: Record<CardTransactionStatus, Tone> = {
  requested: 'info',
  pending: 'warning',
  paid: 'info',
  completed: 'success',
  declined: 'danger',
  reversed: 'neutral',
};

export const KYC_TONE: Record<KycStatus, Tone> = {
  approved: 'success',
  pending: 'warning',
  rejected: 'danger',
  not_started: 'neutral',
};

export const APPLICATION_TONE: Record<ApplicationStatus, Tone> = {
  approved: 'success',
  pending: 'warning',
  rejected: 'danger',
};
