import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEveryTest } from './cleanup.js';

export interface Received {
  headers: IncomingHttpHeaders;
  /** the raw body bytes, as sent */
  raw: Buffer;
  body: { id: string; event: string; data: Record<string, unknown> };
  at: number;
}

type Responder = (request: Received, index: number) => { status: number; body?: string; delayMs?: number };

/**
 * A real webhook receiver on 127.0.0.1:0. `respond` decides each answer (status, body, delay);
 * `waitFor` resolves as soon as what arrived satisfies a predicate (no polling sleeps).
 */
export class Receiver {
  readonly received: Received[] = [];
  respond: Responder = () => ({ status: 200, body: 'ok' });
  private server: Server;
  private waiters: { predicate: (r: Received[]) => boolean; resolve: () => void }[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const entry: Received = {
          headers: req.headers,
          raw,
          body: JSON.parse(raw.toString('utf8')) as Received['body'],
          at: performance.now(),
        };
        const index = this.received.length;
        this.received.push(entry);
        const answer = this.respond(entry, index);
        const reply = () => {
          if (res.destroyed) return;
          res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? '');
        };
        if (answer.delayMs) {
          const timer = setTimeout(() => {
            this.timers.delete(timer);
            reply();
          }, answer.delayMs);
          this.timers.add(timer);
        } else reply();
        this.check();
      });
    });
    this.server.keepAliveTimeout = 60_000;
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  waitFor(predicate: (received: Received[]) => boolean, timeoutMs = 5000): Promise<void> {
    if (predicate(this.received)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `receiver: condition not met within ${timeoutMs} ms (${this.received.length} received)`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({
        predicate,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  count(n: number, timeoutMs?: number): Promise<void> {
    return this.waitFor((r) => r.length >= n, timeoutMs);
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private check(): void {
    this.waiters = this.waiters.filter((w) => {
      if (!w.predicate(this.received)) return true;
      w.resolve();
      return false;
    });
  }
}

const receivers: Receiver[] = [];
afterEveryTest(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

export async function startReceiver(): Promise<Receiver> {
  const receiver = new Receiver();
  await receiver.start();
  receivers.push(receiver);
  return receiver;
}
