import type { CardStatus } from '../../api/types';
import type { Tone } from '../../components/StatusBadge';

export const CARD_TONE: Record<CardStatus, Tone> = {
  active: 'success',
  notActivated: 'warning',
  locked: 'info',
  canceled: 'neutral',
};

export const TX_TONE: Record<string, Tone> = {
  requested: 'info',
  completed: 'success',
  declined: 'danger',
  reversed: 'neutral',
};

export const KYC_TONE: Record<string, Tone> = {
  approved: 'success',
  pending: 'warning',
  rejected: 'danger',
  none: 'neutral',
};

export const APPLICATION_TONE: Record<string, Tone> = {
  approved: 'success',
  pending: 'warning',
  rejected: 'danger',
};
