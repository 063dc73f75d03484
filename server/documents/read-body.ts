// A request body read as parse-body.ts reads it, with big forms read by qs in a worker thread (form-worker.ts): a form
// of more than FORM_FIELDS_ON_THREAD fields is checked against its bound here, then parsed there, so that the event
// loop never runs qs over thousands of fields. JSON stays on the loop (JSON.parse is native: 1 MB in about 20 ms).
// Must not validate fields.
import path from 'node:path';
import { WorkerJobs } from '../workers/jobs';
import {
  FORM_FIELDS_ON_THREAD,
  formFieldCount,
  formNotUtf8,
  parseBody,
  type BodyKind,
  type BodyLimits,
  type ParsedBody,
} from './parse-body';

const formJobs = new WorkerJobs<{ text: string; arrayLimit: number }, ParsedBody>(path.join(__dirname, 'form-worker'), formNotUtf8);

/** The body of `kind` as an object (refused as parse-body.ts refuses it). */
export async function readBody(kind: BodyKind, raw: Buffer, limits: BodyLimits): Promise<ParsedBody> {
  if (kind !== 'form' || formFieldCount(raw) <= FORM_FIELDS_ON_THREAD) return parseBody(kind, raw, limits);
  // The checks first, on a form with a cheap stand-in parse: every refusal is parseBody's own.
  parseBody(kind, raw, limits, () => ({}));
  return formJobs.run({ text: raw.toString('utf8').replace(/^\uFEFF/, ''), arrayLimit: limits.maxItems });
}
