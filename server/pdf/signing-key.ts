// The signing key and certificate of PDF signatures, read once at start-up from a PKCS#12 file (PDF_SIGNING_P12,
// PDF_SIGNING_PASSWORD). node-forge reads the container: it decrypts both today's (PBES2, AES, HMAC-SHA-256) and the
// legacy (3DES, RC2) PKCS#12 files, which WebCrypto-based readers cannot. The key is handed to Node's crypto (RSA,
// EC or Ed25519, whatever forge can parse or not) and the certificate to X509Certificate. A file that cannot be read,
// a wrong password, or no certificate for the key is a SigningKeyError naming the cause. No HTTP, no PDF here.
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import forge from 'node-forge';

export class SigningKeyError extends Error {}

export interface SigningKey {
  privateKey: KeyObject;
  /** The signer's certificate, and the other certificates of the file (its chain), DER. */
  certificate: X509Certificate;
  chain: X509Certificate[];
  /** The signer's common name (or whole subject), for the signature dictionary's /Name. */
  signer: string;
}

const der = (asn1: forge.asn1.Asn1) => Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');

/** Reads `file` with `password`; throws SigningKeyError with what is wrong. */
export function loadSigningKey(file: string, password: string): SigningKey {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    throw new SigningKeyError(`PDF_SIGNING_P12 cannot be read: ${(err as Error).message}`);
  }
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(bytes.toString('binary')), false, password);
  } catch (err) {
    const message = (err as Error).message;
    if (/MAC could not be verified|Invalid password/i.test(message)) {
      throw new SigningKeyError('PDF_SIGNING_PASSWORD does not open PDF_SIGNING_P12 (wrong password)');
    }
    throw new SigningKeyError(`PDF_SIGNING_P12 is not a PKCS#12 file this service can read: ${message}`);
  }
  const bagsOf = (bagType: string) => p12.getBags({ bagType })[bagType] ?? [];
  const keyBags = [...bagsOf(forge.pki.oids.pkcs8ShroudedKeyBag!), ...bagsOf(forge.pki.oids.keyBag!)];
  const keys = keyBags.flatMap((bag) => {
    // forge parses RSA keys only; the PKCS#8 structure it decrypted serves any other.
    const asn1 = bag.key ? forge.pki.privateKeyToAsn1(bag.key) : bag.asn1;
    if (!asn1) return [];
    const pkcs8 = bag.key ? forge.pki.wrapRsaPrivateKey(asn1) : asn1;
    try {
      return [createPrivateKey({ key: der(pkcs8), format: 'der', type: 'pkcs8' })];
    } catch {
      return [];
    }
  });
  const certs = bagsOf(forge.pki.oids.certBag!).flatMap((bag) => {
    const asn1 = bag.cert ? forge.pki.certificateToAsn1(bag.cert) : bag.asn1;
    try {
      return asn1 ? [new X509Certificate(der(asn1))] : [];
    } catch {
      return [];
    }
  });
  if (keys.length === 0) throw new SigningKeyError('PDF_SIGNING_P12 holds no private key this service can use');
  for (const privateKey of keys) {
    const certificate = certs.find((c) => c.checkPrivateKey(privateKey));
    if (!certificate) continue;
    const cn = /(?:^|\n)CN=([^\n]+)/.exec(certificate.subject)?.[1];
    return {
      privateKey,
      certificate,
      chain: certs.filter((c) => c !== certificate),
      signer: cn ?? certificate.subject.replace(/\n/g, ', '),
    };
  }
  throw new SigningKeyError('PDF_SIGNING_P12 holds no certificate for its private key');
}

/** What to warn of: the certificate has expired, or expires within 30 days (undefined when neither). */
export function certificateWarning(key: SigningKey, now: Date = new Date()): string | undefined {
  const notAfter = new Date(key.certificate.validTo);
  const notBefore = new Date(key.certificate.validFrom);
  if (notAfter.getTime() <= now.getTime()) return `the signing certificate expired on ${notAfter.toISOString()}`;
  if (notBefore.getTime() > now.getTime()) return `the signing certificate is not valid before ${notBefore.toISOString()}`;
  const days = (notAfter.getTime() - now.getTime()) / 86_400_000;
  if (days <= 30) return `the signing certificate expires on ${notAfter.toISOString()}, in ${Math.floor(days)} days`;
  return undefined;
}
