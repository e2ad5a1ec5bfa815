import type { Migration } from '../migrate.js';
import { init } from './001-init.js';
import { webhooksLedger } from './002-webhooks-ledger.js';
import { money } from './003-money.js';
import { cards } from './004-cards.js';
import { leanWrites } from './005-lean-writes.js';
import { emailNocase } from './006-email-nocase.js';
import { resellers } from './007-resellers.js';
import { ledgerBalances } from './008-ledger-balances.js';
import { requestLog } from './009-request-log.js';
import { perfRequestLog } from './010-perf-request-log.js';
import { views } from './011-views.js';
import { leanDeliveries } from './012-lean-deliveries.js';
import { leanWebhookRows } from './013-lean-webhook-rows.js';
import { webhookParts } from './014-webhook-parts.js';
import { feesWhenPaid } from './015-fees-when-paid.js';
import { webhookChaos } from './017-webhook-chaos.js';
import { listenEndpoints } from './018-listen-endpoints.js';
import { paymentOutcomes } from './020-payment-outcomes.js';
import { txidLookup } from './021-txid-lookup.js';
import { coverage } from './023-coverage.js';
import { requestLogFaults } from './024-request-log-faults.js';
import { dueJobsIndex } from './025-due-jobs-index.js';

/** Every migration, in order. Append only; never edit one that has shipped. */
export const migrations: readonly Migration[] = [
  init,
  webhooksLedger,
  money,
  cards,
  leanWrites,
  emailNocase,
  resellers,
  ledgerBalances,
  requestLog,
  perfRequestLog,
  views,
  leanDeliveries,
  leanWebhookRows,
  webhookParts,
  feesWhenPaid,
  webhookChaos,
  listenEndpoints,
  paymentOutcomes,
  txidLookup,
  coverage,
  requestLogFaults,
  dueJobsIndex,
];
