/**
 * The webhooks of one step: what the real service delivered (in arrival order) against the events
 * the step fired in the sandbox (in the order it fired them). The longest common run in order
 * pairs most of them; a leftover of a type both sides have is one webhook out of order (two
 * swapped webhooks are one such, not a missing and an extra); what is left is missing or extra.
 * Paired webhooks compare their payloads field by field.
 */
import type { RecordedWebhook } from '../scenarios/format.js';
import { type CompareContext, compareValues, type Found } from './compare.js';

export interface SandboxWebhook {
  type: string;
  data: unknown;
}

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

/** Pairs of positions (recorded, sandbox) in order, as many as can be. */
function inOrder(recorded: readonly string[], sandbox: readonly string[]): [number, number][] {
  const n = recorded.length;
  const m = sandbox.length;
  const best = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      best[i]![j] =
        recorded[i] === sandbox[j] ? best[i + 1]![j + 1]! + 1 : Math.max(best[i + 1]![j]!, best[i]![j + 1]!);
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (recorded[i] === sandbox[j]) pairs.push([i++, j++]);
    else if (best[i + 1]![j]! >= best[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

export function compareWebhooks(
  recorded: readonly RecordedWebhook[],
  sandbox: readonly SandboxWebhook[],
  ctx: CompareContext,
): Found[] {
  const found: Found[] = [];
  const recordedTypes = recorded.map((w) => w.type);
  const sandboxTypes = sandbox.map((w) => w.type);
  const pairs = inOrder(recordedTypes, sandboxTypes);
  const pairedRecorded = new Set(pairs.map(([i]) => i));
  const pairedSandbox = new Set(pairs.map(([, j]) => j));
  const list = (types: string[]) => (types.length === 0 ? 'none' : types.join(', '));
  const order = `the service delivered ${list(recordedTypes)}; the sandbox fired ${list(sandboxTypes)}`;
  const moved: [number, number][] = [];
  for (const [i, webhook] of recorded.entries()) {
    if (pairedRecorded.has(i)) continue;
    const j = sandbox.findIndex((w, k) => !pairedSandbox.has(k) && w.type === webhook.type);
    if (j < 0) continue;
    pairedRecorded.add(i);
    pairedSandbox.add(j);
    moved.push([i, j]);
    found.push({
      kind: 'webhook_order',
      path: `webhook:${webhook.type}`,
      message: `out of order: ${order}`,
    });
  }
  for (const [i, webhook] of recorded.entries()) {
    if (pairedRecorded.has(i)) continue;
    found.push({
      kind: 'webhook_missing',
      path: `webhook:${webhook.type}`,
      message: `the service delivered it (${ordinal(i + 1)} of ${recorded.length}); the sandbox fired no such event`,
    });
  }
  for (const [j, webhook] of sandbox.entries()) {
    if (pairedSandbox.has(j)) continue;
    found.push({
      kind: 'webhook_extra',
      path: `webhook:${webhook.type}`,
      message: `the sandbox fired it (${ordinal(j + 1)} of ${sandbox.length}); the service delivered no such webhook`,
    });
  }
  for (const [i, j] of [...pairs, ...moved].sort((a, b) => a[0] - b[0])) {
    const webhook = recorded[i]!;
    if (webhook.data === undefined) continue;
    found.push(
      ...compareValues(
        webhook.data,
        sandbox[j]!.data,
        { ...ctx, webhook: true, prefix: `webhook:${webhook.type}.data` },
        [],
        ctx.contract?.webhookData(webhook.type),
      ),
    );
  }
  return found;
}
