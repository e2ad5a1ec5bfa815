import type { Migration } from '../migrate.js';

/**
 * A checkout's fees are fixed when its payment is detected (status `paid`), no longer at
 * settlement. A checkout stored `paid` by an older build still shows 0 fees and the uncapped gas
 * fee: its figures are filled in here, as the build that reads them would have fixed them (the
 * merchant's platform_rate, else the setting; the snapshotted reseller terms; the gas fee capped at
 * what the fees leave), so its settlement credits what it shows. `amount × rate / 10000` is written
 * as `(amount / 10000) × rate + (amount % 10000) × rate / 10000`: the same floor, and no 64-bit
 * overflow for any amount the API accepts. No schema change.
 */
export const feesWhenPaid: Migration = {
  version: 15,
  name: 'fees-when-paid',
  sql: `
UPDATE checkouts SET
  platform_fee = f.platform,
  reseller_fee = f.gross - f.platform,
  platform_gas_fee = MIN(checkouts.platform_gas_fee, checkouts.paid_amount - f.gross)
FROM (
  SELECT id, platform,
    CASE WHEN reseller_rate IS NULL THEN platform ELSE MAX(MIN(capped, paid), platform) END AS gross
  FROM (
    SELECT id, paid, platform, reseller_rate,
      CASE WHEN reseller_max_fee IS NOT NULL AND floored > reseller_max_fee THEN reseller_max_fee
           ELSE floored END AS capped
    FROM (
      SELECT id, paid, platform, reseller_rate, reseller_max_fee,
        CASE WHEN reseller_min_fee IS NOT NULL AND commission < reseller_min_fee THEN reseller_min_fee
             ELSE commission END AS floored
      FROM (
        SELECT c.id, c.paid_amount AS paid, c.reseller_rate, c.reseller_min_fee, c.reseller_max_fee,
          (c.paid_amount / 10000) * r.rate + (c.paid_amount % 10000) * r.rate / 10000 AS platform,
          (c.paid_amount / 10000) * COALESCE(c.reseller_rate, 0)
            + (c.paid_amount % 10000) * COALESCE(c.reseller_rate, 0) / 10000 AS commission
        FROM checkouts c
        JOIN (
          SELECT m.id AS merchant_id, COALESCE(
            m.platform_rate,
            (SELECT json_extract(value, '$.platform_rate') FROM kv WHERE key = 'settings'),
            0
          ) AS rate
          FROM merchants m
        ) r ON r.merchant_id = c.merchant_id
        WHERE c.status = 'paid' AND c.settled_at IS NULL AND c.paid_amount IS NOT NULL
      )
    )
  )
) AS f
WHERE f.id = checkouts.id;
`,
};
