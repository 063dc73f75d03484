// The body of a document route before it is parsed: present, of a type the route reads, within the limit of its kind
// (a document request's MAX_BODY_BYTES, a received e-invoice's MAX_RECEIVED_BYTES), then read as bytes. Refusals are
// domain errors (errors-to-http.ts answers them); nothing here parses a body.
import express, { type Request, type RequestHandler } from 'express';
import type { Config } from '../config';
import { errors } from '../errors';
import { receivedKind } from './received';
import { requestErrors } from './request-errors';
import { bodyKind } from './body-kind';

/** How much of a refused body is read and dropped before the 413, and for how long at most: a client still sending
 * when the connection closes sees a broken pipe, not the 413 (as the fuzz suite's fetch did). Past either bound the
 * answer goes at once and the connection closes under the client. */
const DISCARD_FACTOR = 4;
const DISCARD_MS = 2000;

/** Resolves once `req` has been read to its end (its data dropped), or after `ms`, whichever comes first. */
function discard(req: Request, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    req.on('end', done).on('error', done).on('close', done).resume();
  });
}

/** 400 for an absent body, 415 for a type we do not parse, 413 for a declared length over the limit (a received
 * e-invoice's, XML or PDF, or a document request's): all checked before the body is parsed. A body refused by its
 * length is read and dropped when it is at most 4 × the limit (for at most 2 s), so that the client can read the 413;
 * the connection closes after the answer. */
export function bodyPreconditions(limits: Pick<Config['limits'], 'maxBodyBytes' | 'maxReceivedBytes'>): RequestHandler {
  return (req, res, next) => {
    const received = receivedKind(req.get('content-type')) !== undefined;
    const limit = received ? limits.maxReceivedBytes : limits.maxBodyBytes;
    const length = req.get('content-length');
    const chunked = req.get('transfer-encoding') !== undefined;
    if (!chunked && (length === undefined || Number(length) === 0)) return next(errors.emptyBody());
    if (length !== undefined && Number(length) > limit) {
      res.set('Connection', 'close');
      const refuse = () => next(requestErrors.bodyTooLarge(limit));
      if (Number(length) > limit * DISCARD_FACTOR) return refuse();
      void discard(req, DISCARD_MS).then(refuse);
      return;
    }
    if (!received) bodyKind(req.get('content-type'));
    next();
  };
}

/** The body as bytes, up to the limit of its kind (inflated when sent gzip or deflate). */
export function rawBody(limits: Pick<Config['limits'], 'maxBodyBytes' | 'maxReceivedBytes'>): RequestHandler {
  const documents = express.raw({ type: () => true, limit: limits.maxBodyBytes, inflate: true });
  const received = express.raw({ type: () => true, limit: limits.maxReceivedBytes, inflate: true });
  return (req, res, next) => (receivedKind(req.get('content-type')) ? received : documents)(req, res, next);
}
