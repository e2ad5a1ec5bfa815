import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

/**
 * Trust for HTTPS webhook receivers: which certificates a receiver may chain to, and what a failed
 * certificate check means, in words, on the attempt.
 */

/**
 * The certificates an HTTPS receiver may chain to, when extra ones are given: Node's bundled roots,
 * the file NODE_EXTRA_CA_CERTS names, and the extra. A `ca` given to TLS replaces Node's default
 * store (which holds the NODE_EXTRA_CA_CERTS certificates) rather than adding to it, so both are
 * listed again here. Without extra ones: undefined, Node's default store as it is.
 */
export function trustedCertificates(
  extra: readonly string[] | undefined,
  env: NodeJS.ProcessEnv,
): string[] | undefined {
  if (!extra || extra.length === 0) return undefined;
  // Caught when the sandbox is made, not at the first send: a path passed for the PEM text.
  for (const pem of extra)
    if (!pem.includes('-----BEGIN CERTIFICATE-----'))
      throw new Error(
        `webhookCa: not PEM certificate text: ${pem.slice(0, 60)} (a file is read with readCaBundle)`,
      );
  const fromEnv: string[] = [];
  const file = env.NODE_EXTRA_CA_CERTS;
  if (file) {
    try {
      fromEnv.push(readFileSync(file, 'utf8'));
    } catch {
      // Node has already warned about an unreadable file at start-up and goes on without it.
    }
  }
  return [...rootCertificates, ...fromEnv, ...extra];
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The certificates of a PEM bundle file (a local CA such as mkcert's rootCA.pem, or a self-signed
 * receiver's certificate), each checked to parse. Throws an Error saying what is wrong with the
 * file: unreadable, no certificate in it, or one that does not parse.
 */
export function readCaBundle(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as Error).message}`);
  }
  const certificates = text.match(PEM_CERTIFICATE) ?? [];
  if (certificates.length === 0)
    throw new Error(
      `${path} holds no PEM certificate (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----)`,
    );
  certificates.forEach((pem, i) => {
    try {
      new X509Certificate(pem);
    } catch (error) {
      throw new Error(`certificate ${i + 1} of ${path} does not parse: ${(error as Error).message}`);
    }
  });
  return certificates;
}

const TRUST_HINT =
  'trust its CA with the webhook CA setting (serve --webhook-ca FILE) or NODE_EXTRA_CA_CERTS';

/**
 * What OpenSSL's and Node's certificate checks mean for a developer's receiver, by error code.
 * The code stays in the text, for searching.
 */
const TLS_FAILURES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: `the receiver's certificate is self-signed and not trusted: ${TRUST_HINT}`,
  SELF_SIGNED_CERT_IN_CHAIN: `the receiver's certificate chains to a self-signed CA that is not trusted: ${TRUST_HINT}`,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: `the receiver's certificate is signed by an unknown CA: ${TRUST_HINT}`,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: `the receiver's certificate is signed by an unknown CA: ${TRUST_HINT}`,
  UNABLE_TO_GET_ISSUER_CERT: `the receiver's certificate is signed by an unknown CA: ${TRUST_HINT}`,
  CERT_UNTRUSTED: `the receiver's certificate is not trusted: ${TRUST_HINT}`,
  CERT_HAS_EXPIRED: "the receiver's certificate has expired",
  CERT_NOT_YET_VALID: "the receiver's certificate is not valid yet (its start date is in the future)",
  CERT_SIGNATURE_FAILURE: "the receiver's certificate has an invalid signature",
  CERT_REVOKED: "the receiver's certificate has been revoked",
  ERR_SSL_WRONG_VERSION_NUMBER: 'the receiver does not speak TLS on this port (is it http://, not https://?)',
};

/**
 * A failed certificate check in words (self-signed, unknown CA, expired, another host name), with
 * Node's code kept for searching; undefined when the error is not one.
 */
export function describeTlsFailure(error: Error, code: string | undefined): string | undefined {
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const reason = (error as { reason?: string }).reason ?? error.message;
    return `TLS (${code}): the receiver's certificate is for another host name: ${reason}`;
  }
  const words = code === undefined ? undefined : TLS_FAILURES[code];
  return words === undefined ? undefined : `TLS (${code}): ${words}`;
}
