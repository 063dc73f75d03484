// The CMS SignedData of a PAdES baseline signature (ETSI EN 319 142-1, SubFilter ETSI.CAdES.detached): detached
// (no content inside), SHA-256, signed attributes content-type, message-digest and ESS signing-certificate-v2 (and,
// as PAdES asks, no signing-time: the time is the signature dictionary's /M), the signer's certificate and chain,
// and for level B-T an RFC 3161 timestamp token over the signature value as an unsigned attribute.
// The structures are pkijs' and asn1js' (PeculiarVentures); the signature is Node's crypto (native, well under a
// millisecond). What never changes per document is made once: for a signature of fixed length (RSA) and no
// timestamp, pkijs encodes the whole ContentInfo once with marker bytes in place of the digest and the signature, and
// each document only overwrites those two (same length, same DER); otherwise (ECDSA, B-T) pkijs encodes it each time.
import { createHash, sign as cryptoSign } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { SigningKeyError, type SigningKey } from './signing-key';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  timeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const;

/** A copy of `bytes` as the ArrayBuffer pkijs and asn1js take. */
export const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer => bytes.slice().buffer as ArrayBuffer;

/** The ContentInfo encoded once, and where each document's digest and signature go in it. */
interface Template {
  /** The signed attributes as signed (SET OF), with the digest at `attrsDigestAt`. */
  attrs: Buffer;
  attrsDigestAt: number;
  der: Buffer;
  derDigestAt: number;
  derSignatureAt: number;
  signatureLength: number;
}

/** The CMS builder of one signing key. */
export class CmsSigner {
  private readonly certificates: pkijs.Certificate[];
  private readonly sid: pkijs.IssuerAndSerialNumber;
  private readonly signatureAlgorithm: pkijs.AlgorithmIdentifier;
  private readonly fixedAttributes: pkijs.Attribute[];
  private readonly template?: Template;

  constructor(private readonly key: SigningKey) {
    const parse = (der: Buffer) => pkijs.Certificate.fromBER(toArrayBuffer(der));
    const signer = parse(key.certificate.raw);
    this.certificates = [signer, ...key.chain.map((c) => parse(c.raw))];
    this.sid = new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber });
    const type = key.privateKey.asymmetricKeyType;
    if (type === 'rsa') {
      this.signatureAlgorithm = new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256WithRsa, algorithmParams: new asn1js.Null() });
    } else if (type === 'ec') {
      this.signatureAlgorithm = new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSha256 });
    } else {
      throw new SigningKeyError(`PDF_SIGNING_P12 holds a ${type} key: PDF signatures are made with RSA or ECDSA keys`);
    }
    // ESS signing-certificate-v2 (RFC 5035): the SHA-256 of the signer's certificate (the default hash algorithm,
    // so not written) and its issuer and serial number.
    const issuerSerial = new asn1js.Sequence({
      value: [
        new asn1js.Sequence({
          value: [new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [signer.issuer.toSchema()] })],
        }),
        signer.serialNumber,
      ],
    });
    const certHash = createHash('sha256').update(key.certificate.raw).digest();
    const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: toArrayBuffer(certHash) }), issuerSerial] });
    this.fixedAttributes = [
      new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
      new pkijs.Attribute({
        type: OID.signingCertificateV2,
        values: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })],
      }),
    ];
    if (type === 'rsa') this.template = this.makeTemplate();
  }

  /** The ContentInfo with marker bytes for the digest and the signature (an RSA signature's length is fixed). */
  private makeTemplate(): Template {
    const digest = createHash('sha256').update('docgen digest marker').digest();
    const { attrs, value } = this.signed(digest);
    const signature = createHash('sha512').update('docgen signature marker').digest();
    const marker = Buffer.alloc(value.length);
    for (let i = 0; i < marker.length; i += signature.length) signature.copy(marker, i);
    const der = this.encode(attrs, marker);
    const set = this.attrsToSign(attrs);
    const template = {
      attrs: set,
      attrsDigestAt: set.indexOf(digest),
      der,
      derDigestAt: der.indexOf(digest),
      derSignatureAt: der.indexOf(marker),
      signatureLength: marker.length,
    };
    if (template.attrsDigestAt < 0 || template.derDigestAt < 0 || template.derSignatureAt < 0)
      throw new Error('the CMS template has no markers');
    return template;
  }

  /** The signed attributes as the signature covers them: a SET OF (tag 0x31), not the [0] IMPLICIT written. */
  private attrsToSign(attrs: pkijs.SignedAndUnsignedAttributes): Buffer {
    const encoded = Buffer.from(attrs.toSchema().toBER(false));
    encoded[0] = 0x31;
    return encoded;
  }

  /** The signature value over the signed attributes for `digest` (the SHA-256 of the signed bytes). */
  private signed(digest: Buffer): { attrs: pkijs.SignedAndUnsignedAttributes; value: Buffer } {
    const attrs = new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        this.fixedAttributes[0]!,
        new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: toArrayBuffer(digest) })] }),
        this.fixedAttributes[1]!,
      ],
    });
    return { attrs, value: cryptoSign('sha256', this.attrsToSign(attrs), this.key.privateKey) };
  }

  /**
   * The DER ContentInfo for `digest`; `timestamp`, when given, is asked for a token over the signature value
   * (its SHA-256) and the token is added as the signature-time-stamp attribute.
   */
  async sign(digest: Buffer, timestamp?: (imprint: Buffer) => Promise<Buffer>): Promise<Buffer> {
    const t = this.template;
    if (t && !timestamp) {
      const attrs = Buffer.from(t.attrs);
      digest.copy(attrs, t.attrsDigestAt);
      const value = cryptoSign('sha256', attrs, this.key.privateKey);
      if (value.length === t.signatureLength) {
        const der = Buffer.from(t.der);
        digest.copy(der, t.derDigestAt);
        value.copy(der, t.derSignatureAt);
        return der;
      }
    }
    const { attrs, value } = this.signed(digest);
    return this.encode(attrs, value, timestamp && (await timestamp(createHash('sha256').update(value).digest())));
  }

  /** The DER ContentInfo of signed attributes, a signature value and, for B-T, a timestamp token. */
  private encode(attrs: pkijs.SignedAndUnsignedAttributes, value: Buffer, token?: Buffer): Buffer {
    const sha256 = new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 });
    const signerInfo = new pkijs.SignerInfo({
      version: 1,
      sid: this.sid,
      digestAlgorithm: sha256,
      signedAttrs: attrs,
      signatureAlgorithm: this.signatureAlgorithm,
      signature: new asn1js.OctetString({ valueHex: toArrayBuffer(value) }),
    });
    if (token) {
      const parsed = asn1js.fromBER(toArrayBuffer(token));
      if (parsed.offset === -1) throw new Error('the timestamp token is not DER');
      signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
        type: 1,
        attributes: [new pkijs.Attribute({ type: OID.timeStampToken, values: [parsed.result] })],
      });
    }
    const signedData = new pkijs.SignedData({
      version: 1,
      digestAlgorithms: [sha256],
      encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
      certificates: this.certificates,
      signerInfos: [signerInfo],
    });
    const info = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
    return Buffer.from(info.toSchema().toBER(false));
  }
}
