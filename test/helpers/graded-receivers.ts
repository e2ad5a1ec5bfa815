import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_HEADER } from '../../server/contract/webhooks.js';
import { sign, verify } from '../../server/webhooks/signing.js';
import { afterEveryTest } from './cleanup.js';

/**
 * Webhook receivers, each a real HTTP server on 127.0.0.1, for grading by the receiver check:
 * `correct` verifies the HMAC over the raw bytes and deduplicates by delivery id (its processed
 * count at /effects); `repeating` verifies it too but acts on every delivery, a repeat included;
 * `reserializing` verifies it over JSON.stringify(JSON.parse(body)); `trusting` never checks
 * signatures; `hanging` reads each request and never answers.
 */
export type ReceiverKind = 'correct' | 'repeating' | 'reserializing' | 'trusting' | 'hanging';

export interface GradedReceiver {
  url: string;
  effectsUrl: string;
  /** how many distinct deliveries it processed */
  processed: () => number;
}

const servers: Server[] = [];
afterEveryTest(async () => {
  await Promise.all(
    servers.splice(0).map((s) => {
      s.closeAllConnections(); // a hanging receiver's requests are still open
      return new Promise((done) => s.close(done));
    }),
  );
});

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export async function startGradedReceiver(kind: ReceiverKind, secret: string): Promise<GradedReceiver> {
  const seen = new Set<string>();
  let acted = 0;
  const server = createServer((request, response) => {
    void readBody(request).then((raw) => {
      if (request.method === 'GET') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ processed: kind === 'repeating' ? acted : seen.size }));
        return;
      }
      if (kind === 'hanging') return; // the request stays open, unanswered
      const header = request.headers[WEBHOOK_HEADER.signature] as string | undefined;
      const valid =
        kind === 'trusting'
          ? true
          : kind === 'correct' || kind === 'repeating'
            ? verify(secret, raw, header)
            : header === sign(secret, JSON.stringify(JSON.parse(raw.toString('utf8'))));
      if (!valid) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end('{"error":"bad signature"}');
        return;
      }
      const id = request.headers[WEBHOOK_HEADER.deliveryId] as string;
      seen.add(id);
      acted++;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"received":true}');
    });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    effectsUrl: `http://127.0.0.1:${port}/effects`,
    processed: () => (kind === 'repeating' ? acted : seen.size),
  };
}
