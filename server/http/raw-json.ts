import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors.js';

const LIMIT = 64 * 1024;

const tooLarge = () => new AppError(413, 'Request body is too large');

/**
 * Reads a JSON body from a request Fastify leaves unparsed (a GET: the spec carries the PIN
 * read's `session` in a GET body). Same rules as every other body: JSON only, 400 when malformed.
 * Over the limit it stops keeping bytes but never destroys the request: the connection guard
 * (connections.ts) discards the rest after the 413, so the client reads that answer.
 */
export async function readJsonBody(raw: IncomingMessage): Promise<unknown> {
  const type = raw.headers['content-type'];
  const declared = Number(raw.headers['content-length']);
  if (declared > LIMIT) throw tooLarge();
  const body = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (error: Error | null) => {
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onError);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > LIMIT) stop(tooLarge());
      else chunks.push(chunk);
    };
    const onEnd = () => stop(null);
    const onError = (error: Error) => stop(error);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('error', onError);
  });
  if (body.length === 0) return {};
  if (!type?.toLowerCase().startsWith('application/json')) {
    throw new AppError(415, 'Unsupported Content-Type: request bodies must be application/json');
  }
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch (error) {
    throw new AppError(400, `Malformed JSON body: ${(error as Error).message}`);
  }
}
