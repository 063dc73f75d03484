// What the signing tests need from the outside: signing keys made by openssl (PKCS#12 files as a customer's CA or
// openssl would hand them over), a certificate already expired (openssl 3.0 cannot back-date one: node-forge writes
// it), a local RFC 3161 time-stamping authority (`openssl ts -reply` behind a small HTTP server), and poppler's
// `pdfsig` output read into fields. It checks nothing itself.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import forge from 'node-forge';
import { tempDir } from './service';

const openssl = (dir: string, ...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

/** A self-signed certificate and key in a PKCS#12 file (openssl's defaults: AES-256, PBKDF2, HMAC-SHA-256). */
export function makeP12(opts: { cn: string; days?: number; ec?: boolean; password?: string; legacy?: boolean }): string {
  const dir = tempDir('p12');
  const key = opts.ec ? ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'] : ['-newkey', 'rsa:2048'];
  openssl(
    dir,
    'req',
    '-x509',
    ...key,
    '-nodes',
    '-keyout',
    'key.pem',
    '-out',
    'cert.pem',
    '-days',
    String(opts.days ?? 365),
    '-subj',
    `/CN=${opts.cn}/O=Docgen Tests`,
  );
  const file = path.join(dir, 'signer.p12');
  openssl(
    dir,
    'pkcs12',
    '-export',
    '-inkey',
    'key.pem',
    '-in',
    'cert.pem',
    '-out',
    file,
    '-passout',
    `pass:${opts.password ?? 'secret'}`,
    ...(opts.legacy ? ['-legacy'] : []),
  );
  return file;
}

/** A PKCS#12 whose certificate expired a year ago. */
export function makeExpiredP12(cn: string, password = 'secret'): string {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 2 * 365 * 86_400_000);
  cert.validity.notAfter = new Date(Date.now() - 365 * 86_400_000);
  const attrs = [{ name: 'commonName', value: cn }];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert], password, { algorithm: 'aes256' });
  const file = path.join(tempDir('p12'), 'expired.p12');
  fs.writeFileSync(file, Buffer.from(forge.asn1.toDer(p12).getBytes(), 'binary'));
  return file;
}

export interface Tsa {
  url: string;
  /** The TSA's certificate (PEM file), to verify its tokens with. */
  certFile: string;
  requests: number;
  /** Answer with HTTP 500 from now on (an authority that is down). */
  fail: boolean;
  close(): Promise<void>;
}

/** A time-stamping authority on a local port: each request answered by `openssl ts -reply`. */
export async function startTsa(): Promise<Tsa> {
  const dir = tempDir('tsa');
  fs.writeFileSync(
    path.join(dir, 'tsa.cnf'),
    `[ req ]
distinguished_name = dn
[ dn ]
[ tsa_ext ]
basicConstraints = critical, CA:false
keyUsage = critical, digitalSignature, nonRepudiation
extendedKeyUsage = critical, timeStamping
[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
dir = ${dir}
serial = ${dir}/serial
crypto_device = builtin
signer_digest = sha256
default_policy = 1.2.3.4.1
other_policies = 1.2.3.4.5
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = no
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`,
  );
  fs.writeFileSync(path.join(dir, 'serial'), '01\n');
  openssl(
    dir,
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'tsa.key',
    '-out',
    'tsa.pem',
    '-days',
    '30',
    '-subj',
    '/CN=Docgen Test TSA',
    '-config',
    'tsa.cnf',
    '-extensions',
    'tsa_ext',
  );
  const state = { requests: 0, fail: false };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.requests++;
      if (state.fail || req.headers['content-type'] !== 'application/timestamp-query') {
        res.writeHead(500).end();
        return;
      }
      const query = path.join(dir, `q${state.requests}.tsq`);
      const reply = path.join(dir, `r${state.requests}.tsr`);
      fs.writeFileSync(query, Buffer.concat(chunks));
      try {
        openssl(dir, 'ts', '-reply', '-config', 'tsa.cnf', '-queryfile', query, '-inkey', 'tsa.key', '-signer', 'tsa.pem', '-out', reply);
        res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(fs.readFileSync(reply));
      } catch {
        res.writeHead(500).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const tsa = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`,
    certFile: path.join(dir, 'tsa.pem'),
    get requests() {
      return state.requests;
    },
    get fail() {
      return state.fail;
    },
    set fail(value: boolean) {
      state.fail = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return tsa;
}

export interface PdfSigInfo {
  count: number;
  signatures: Record<string, string>[];
  raw: string;
}

/** `pdfsig`'s report of `pdf`: one record of "- Key: value" lines per signature. */
export function pdfsig(pdf: Uint8Array): PdfSigInfo {
  const file = path.join(tempDir('pdfsig'), 'doc.pdf');
  fs.writeFileSync(file, pdf);
  let raw: string;
  try {
    raw = execFileSync('pdfsig', [file], { stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8');
  } catch (err) {
    raw = String((err as { stdout?: Buffer }).stdout ?? '');
  }
  const signatures = raw
    .split(/^Signature #\d+:$/m)
    .slice(1)
    .map((block) => {
      const fields: Record<string, string> = {};
      for (const line of block.split('\n')) {
        const m = /^\s+- ([^:]+?)(?::\s*(.*))?$/.exec(line);
        if (m) fields[m[1]!] = m[2] ?? '';
      }
      return fields;
    });
  return { count: signatures.length, signatures, raw };
}
