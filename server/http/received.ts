// Received e-invoices over HTTP: which bodies are received e-invoices (their Content-Type: XML, or a
// Factur-X / ZUGFeRD PDF), and the query's options of the operations that take them (`profile`, `theme`). POST
// /validate answers the report; POST /, /ubl, /cii and /factur-x show or convert a received body instead of making a
// document from a JSON or form request. The work is received-pipeline.ts's; this module turns headers and the query
// into values.
import type { Request } from 'express';
import { errors } from '../errors';
import type { Profile } from '../einvoice/model';
import { PROFILES } from '../einvoice/profiles';
import type { ReceivedBody } from '../received-pipeline';

/** `xml` or `pdf` when the Content-Type is a received e-invoice's (`application/xml`, `text/xml`, any `+xml`,
 * `application/pdf`); undefined for the document requests' JSON and form bodies (and anything else). */
export function receivedKind(contentType: string | undefined): ReceivedBody['kind'] | undefined {
  const mime = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (mime === 'application/xml' || mime === 'text/xml' || /^application\/[\w.+-]+\+xml$/.test(mime)) return 'xml';
  if (mime === 'application/pdf') return 'pdf';
  return undefined;
}

/** The received e-invoice of a request whose body was read raw; undefined when it sends a JSON or form document. */
export function receivedBody(req: Request): ReceivedBody | undefined {
  const kind = receivedKind(req.get('content-type'));
  if (!kind) return undefined;
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  if (raw.byteLength === 0) throw errors.emptyBody();
  return { kind, bytes: raw };
}

/** A query parameter sent once, as text (a repeated one is refused). */
function queryText(req: Request, name: string): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw errors.validation([{ field: name, message: `${name} must be sent once, as text` }]);
  return value;
}

/** `?profile=` of a conversion: one of the specifications the service writes. */
export function queryProfile(req: Request): Profile | undefined {
  const value = queryText(req, 'profile');
  if (value === undefined) return undefined;
  if (!Object.hasOwn(PROFILES, value)) {
    throw errors.validation([{ field: 'profile', message: `profile must be one of ${Object.keys(PROFILES).join(', ')}` }]);
  }
  return value as Profile;
}

/** `?theme=` of a received invoice shown as a PDF (checked against the themes by the pipeline). */
export function queryTheme(req: Request): string | undefined {
  return queryText(req, 'theme');
}
