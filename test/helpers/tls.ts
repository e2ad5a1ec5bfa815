import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import forge from 'node-forge';

/**
 * Certificates made in the test, as a developer's local setup has them (a mkcert-style local CA
 * and its leaves, or a self-signed leaf), and an HTTPS receiver on 127.0.0.1 that serves one.
 */

export interface Issued {
  certPem: string;
  keyPem: string;
  cert: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
}

const DAY = 86_400_000;
let serial = 1;

/** An RSA key made by Node (fast, native), in forge's form. */
function newKey(): { key: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  return { key, publicKey: forge.pki.rsa.setPublicKey(key.n, key.e) };
}

interface Options {
  cn: string;
  /** DNS names and IP addresses the certificate is for */
  hosts?: string[];
  ca?: boolean;
  notBefore?: Date;
  notAfter?: Date;
  /** the issuer; none: self-signed */
  issuer?: Issued;
}

export function issue(options: Options): Issued {
  const { key, publicKey } = newKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = (serial++).toString(16).padStart(4, '0');
  cert.validity.notBefore = options.notBefore ?? new Date(Date.now() - DAY);
  cert.validity.notAfter = options.notAfter ?? new Date(Date.now() + 30 * DAY);
  const subject = [{ name: 'commonName', value: options.cn }];
  cert.setSubject(subject);
  cert.setIssuer(options.issuer ? options.issuer.cert.subject.attributes : subject);
  const extensions: object[] = [{ name: 'basicConstraints', cA: options.ca ?? false, critical: true }];
  if (options.ca) extensions.push({ name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true });
  else extensions.push({ name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true });
  if (!options.ca) extensions.push({ name: 'extKeyUsage', serverAuth: true });
  if (options.hosts)
    extensions.push({
      name: 'subjectAltName',
      altNames: options.hosts.map((host) =>
        /^[\d.]+$/.test(host) ? { type: 7, ip: host } : { type: 2, value: host },
      ),
    });
  cert.setExtensions(extensions);
  cert.sign(options.issuer?.key ?? key, forge.md.sha256.create());
  return { cert, key, certPem: forge.pki.certificateToPem(cert), keyPem: forge.pki.privateKeyToPem(key) };
}

/** A local CA (as mkcert makes one) and the leaves a developer's receiver might serve. */
export function localPki() {
  const ca = issue({ cn: 'Test Local CA', ca: true });
  const hosts = ['localhost', '127.0.0.1'];
  return {
    ca,
    leaf: issue({ cn: 'localhost', hosts, issuer: ca }),
    expired: issue({
      cn: 'localhost',
      hosts,
      issuer: ca,
      notBefore: new Date(Date.now() - 60 * DAY),
      notAfter: new Date(Date.now() - 30 * DAY),
    }),
    wrongHost: issue({ cn: 'other.example', hosts: ['other.example'], issuer: ca }),
    selfSigned: issue({ cn: 'localhost', hosts }),
  };
}

export interface HttpsReceived {
  headers: Record<string, string>;
  body: string;
}

export interface HttpsReceiver {
  url: string;
  received: HttpsReceived[];
  close(): Promise<void>;
}

/** An HTTPS receiver on 127.0.0.1 serving `leaf` (with `chain` after it), answering 200. */
export async function startHttpsReceiver(leaf: Issued, chain: Issued[] = []): Promise<HttpsReceiver> {
  const received: HttpsReceived[] = [];
  const server: Server = createServer(
    { key: leaf.keyPem, cert: [leaf.certPem, ...chain.map((c) => c.certPem)].join('') },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers))
          if (typeof value === 'string') headers[name] = value;
        received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    },
  );
  // Failed handshakes are the point of some tests: they are not errors of the receiver.
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
