// An RFC 3161 time-stamping client: a TimeStampReq for a SHA-256 imprint with a nonce, POSTed to the configured
// authority (PDF_TIMESTAMP_URL) as application/timestamp-query, and the token of its TimeStampResp, checked to be
// granted, to answer our nonce and to stamp our imprint. The structures are pkijs'. A failure (unreachable, late,
// refused, not ours) is a TimestampError: the caller decides what the client is told. No PDF knowledge here.
import { randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { toArrayBuffer } from './cms';

export class TimestampError extends Error {}

const SHA256 = '2.16.840.1.101.3.4.2.1';

/** The DER TimeStampToken (a CMS ContentInfo) the authority at `url` gives for `imprint`. */
export async function requestTimestamp(url: string, imprint: Buffer, timeoutMs: number): Promise<Buffer> {
  const nonce = randomBytes(8);
  nonce[0] = nonce[0]! & 0x7f; // a positive INTEGER
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: toArrayBuffer(imprint) }),
    }),
    nonce: new asn1js.Integer({ valueHex: toArrayBuffer(nonce) }),
    certReq: true,
  });
  let body: Buffer;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query' },
      body: Buffer.from(request.toSchema().toBER(false)),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    if (!res.ok) throw new TimestampError(`the time-stamping authority answered HTTP ${res.status}`);
    body = Buffer.from(await res.arrayBuffer());
  } catch (err) {
    if (err instanceof TimestampError) throw err;
    throw new TimestampError(`the time-stamping authority cannot be reached: ${(err as Error).message}`);
  }
  let response: pkijs.TimeStampResp;
  try {
    response = pkijs.TimeStampResp.fromBER(toArrayBuffer(body));
  } catch {
    throw new TimestampError('the time-stamping authority answered with something other than a TimeStampResp');
  }
  const status = response.status.status;
  if ((status !== 0 && status !== 1) || !response.timeStampToken) {
    throw new TimestampError(`the time-stamping authority refused the request (PKIStatus ${status})`);
  }
  const signed = new pkijs.SignedData({ schema: response.timeStampToken.content });
  const content = signed.encapContentInfo.eContent;
  if (!content) throw new TimestampError('the timestamp token has no TSTInfo');
  const info = pkijs.TSTInfo.fromBER(content.getValue());
  const stamped = Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView);
  const answered = info.nonce ? Buffer.from(info.nonce.valueBlock.valueHexView) : undefined;
  if (!stamped.equals(imprint)) throw new TimestampError('the timestamp token stamps another imprint than ours');
  if (!answered || BigInt(`0x${answered.toString('hex')}`) !== BigInt(`0x${nonce.toString('hex')}`)) {
    throw new TimestampError('the timestamp token does not answer our nonce');
  }
  return Buffer.from(response.timeStampToken.toSchema().toBER(false));
}
