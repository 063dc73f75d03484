// PDF signing as configured (PDF_SIGNING_P12, PDF_SIGNING_PASSWORD, PDF_TIMESTAMP_URL): the key read once at
// start-up, the signer made and measured, the certificate's validity judged for the log and /readyz, and what a
// document's signing failure means for its client (a timestamp that does not come: 503 timestamp_unavailable).
// The signature itself is server/pdf/signature.ts.
import type { Config } from './config';
import { errors } from './errors';
import { archiveAndSign } from './pdf/finish';
import { PRODUCER, type PdfMetadata } from './pdf/metadata';
import { PdfSigner } from './pdf/signature';
import { certificateWarning, loadSigningKey, SigningKeyError } from './pdf/signing-key';
import { requestTimestamp, TimestampError } from './pdf/timestamp';

/** What /readyz says of signing. */
export interface SigningStatus {
  level: 'B-B' | 'B-T';
  signer: string;
  notAfter: string;
  /** Expired, not yet valid, or expiring within 30 days. */
  warning?: string;
}

export class PdfSigning {
  private constructor(private readonly signer: PdfSigner) {}

  /** The signer of `config`, or undefined when PDFs are not signed; a key that cannot be used stops start-up. */
  static async start(config: Pick<Config, 'pdfSigning'>): Promise<PdfSigning | undefined> {
    const opts = config.pdfSigning;
    if (!opts) return undefined;
    let key;
    try {
      key = loadSigningKey(opts.p12, opts.password);
    } catch (err) {
      if (err instanceof SigningKeyError) throw new Error(`PDF signing cannot start: ${err.message}`, { cause: err });
      throw err;
    }
    const url = opts.timestampUrl;
    const timestamp = url ? (imprint: Buffer) => requestTimestamp(url, imprint, opts.timestampTimeoutMs) : undefined;
    try {
      return new PdfSigning(await new PdfSigner(key, { timestamp }).prepare());
    } catch (err) {
      throw new Error(`PDF signing cannot start: ${(err as Error).message}`, { cause: err });
    }
  }

  status(now: Date = new Date()): SigningStatus {
    const { key, level } = this.signer;
    return { level, signer: key.signer, notAfter: new Date(key.certificate.validTo).toISOString(), warning: certificateWarning(key, now) };
  }

  /** `pdf` signed; a timestamp that does not come is timestamp_unavailable. */
  sign(pdf: Uint8Array): Promise<Uint8Array> {
    return this.failing(this.signer.sign(pdf));
  }

  /** Chromium's `pdf` made PDF/A-3a and PDF/UA-1 and signed, in one incremental update. */
  archiveAndSign(pdf: Uint8Array, meta: PdfMetadata): Promise<Uint8Array> {
    return this.failing(archiveAndSign(pdf, meta, PRODUCER, this.signer));
  }

  private async failing(signed: Promise<Uint8Array>): Promise<Uint8Array> {
    try {
      return await signed;
    } catch (err) {
      if (err instanceof TimestampError) throw errors.timestampUnavailable(5, err);
      throw err;
    }
  }
}
