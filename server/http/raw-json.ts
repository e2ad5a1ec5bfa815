import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors.js';

const LIMIT = 64 * 1024;

/**
 * Reads a JSON body from a request Fastify leaves unparsed (a GET: the spec carries the PIN
 * read's `session` in a GET body). Same rules as every other body: JSON only, 400 when malformed.
 */
export async function readJsonBody(raw: IncomingMessage): Promise<unknown> {
  const type = raw.headers['content-type'];
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > LIMIT) throw new AppError(413, 'Request body is too large');
    chunks.push(chunk);
  }
  if (size === 0) return {};
  if (!type?.toLowerCase().startsWith('application/json')) {
    throw new AppError(415, 'Unsupported Content-Type: request bodies must be application/json');
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch (error) {
    throw new AppError(400, `Malformed JSON body: ${(error as Error).message}`);
  }
}
