import fp from 'fastify-plugin';

/**
 * The policy of every answer that sets none of its own: the dashboard (which loads nothing but its
 * own scripts and styles), the control and /v1 APIs, the error pages. Never framed: a page the user
 * visits could otherwise frame the dashboard and trick a click on Reset or Import, and the framed
 * dashboard's requests would be same-origin, past the Origin guard.
 */
export const STRICT_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Whether a policy lets some other page frame this one (then X-Frame-Options must not refuse it). */
const allowsFraming = (csp: string): boolean => {
  const directive = /(?:^|;)\s*frame-ancestors\s+([^;]*)/i.exec(csp);
  return directive !== null && directive[1]!.trim() !== "'none'";
};

/**
 * Security headers on every answer: no referrer leaves the sandbox (hosted pages' URLs carry
 * checkout ids and KYC tokens), no content sniffing, and framing refused (X-Frame-Options for older
 * browsers beside CSP's frame-ancestors) unless a page's own policy names who may frame it (the
 * hosted pages, when the workspace's settings allow it: ../pages/html.ts).
 */
export const securityHeaders = fp(
  async (app) => {
    // A callback hook, not an async one: no promise and no extra turn on every answer.
    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('referrer-policy', 'no-referrer');
      reply.header('x-content-type-options', 'nosniff');
      const own = reply.getHeader('content-security-policy');
      if (own === undefined) {
        reply.header('content-security-policy', STRICT_CSP);
        reply.header('x-frame-options', 'DENY');
      } else if (typeof own !== 'string' || !allowsFraming(own)) {
        reply.header('x-frame-options', 'DENY');
      }
      done(null, payload);
    });
  },
  { name: 'security-headers' },
);
