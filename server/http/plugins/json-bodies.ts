import type { FastifyRequest, preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { hooksOf, takesBody } from './route-hooks.js';

const emptyBodyAsObject: preValidationHookHandler = (request, _reply, done) => {
  if (request.body === undefined && request.method !== 'GET' && request.method !== 'HEAD') request.body = {};
  done();
};

class BodyError extends Error {
  readonly statusCode = 400;
}

/** Where in `value` a key that could reach an object's prototype is (`__proto__`, `constructor.prototype`). */
function prototypeKey(value: unknown, path: string): string | null {
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, child] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (key === '__proto__') return at;
    if (key === 'constructor' && typeof child === 'object' && child !== null && 'prototype' in child)
      return `${at}.prototype`;
    const inner = prototypeKey(child, at);
    if (inner !== null) return inner;
  }
  return null;
}

/**
 * JSON.parse, then a refusal that says what it refused: a key that would reach an object's
 * prototype (Fastify's own parser calls it "not valid JSON", which it is). Only a body that could
 * hold such a key (its name, or a \u escape that may spell it) is walked.
 */
export function parseJsonBody(
  _request: FastifyRequest,
  body: string,
  done: (err: Error | null, value?: unknown) => void,
): void {
  if (body.length === 0) {
    done(new BodyError('Malformed JSON body: the body is empty'));
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    done(new BodyError(`Malformed JSON body: ${(error as Error).message}`));
    return;
  }
  if (body.includes('__proto__') || body.includes('constructor') || body.includes('\\u')) {
    const at = prototypeKey(value, '');
    if (at !== null) {
      done(
        new BodyError(
          `Refused body: the key ${at} could change object prototypes (__proto__ and constructor.prototype are not accepted)`,
        ),
      );
      return;
    }
  }
  done(null, value);
}

/**
 * Bodies are JSON and nothing else: no text/plain or form parser (a CSRF vector for simple
 * cross-site POSTs), so any other content type is a 415. A POST, PUT, PATCH or DELETE with no body
 * is validated as `{}`, so the answer names the missing field rather than "body".
 */
export const jsonBodies = fp(
  async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
      parseJsonBody(request, body as string, done),
    );
    // On the routes that take a body only: a GET (the most frequent call) runs no hook for it.
    app.addHook('onRoute', (route) => {
      if (!takesBody(route.method)) return;
      route.preValidation = [...hooksOf(route.preValidation), emptyBodyAsObject];
    });
  },
  { name: 'json-bodies' },
);
