// An account's brand over HTTP: GET /brand answers it as set, PUT /brand replaces it (a JSON object, checked by the
// pipeline: documents/brand.ts, its logo fetched once), both with the account's API key; and `accountBrand`, run after
// the key on every document route, which reads the account's brand for the document to be made under it (and its
// language, for a request that sends no Accept-Language). A brand is read from the store of the account that the key
// belongs to, never another's. Setting a brand counts no document.
import express, { type RequestHandler, type Router } from 'express';
import type { Brand } from '../documents/brand';
import type { KeyStore } from '../keys/key-store';
import type { DocumentPipeline } from '../pipeline';
import { bodyKind } from './body-kind';
import { otherMethods } from './other-methods';
import { requestErrors } from './request-errors';

/** The account's brand as stored (an object, `{}` when it has none). */
async function stored(keys: KeyStore, account: string): Promise<Brand | undefined> {
  const text = await keys.getBrand(account);
  return text === undefined ? undefined : parse(text);
}

function parse(text: string): Brand | undefined {
  try {
    return JSON.parse(text) as Brand;
  } catch {
    return undefined; // written by this module only; a damaged one is as none
  }
}

/** How many accounts' parsed brands accountBrand keeps (each beside the text the store's cache holds). */
const PARSED_KEPT = 32;

/** After the API key: the account's brand on res.locals.brand, and its language when the request names none. The
 * store keeps each brand's text while its stamp stays (keys/cached-brands.ts) and hands the same string meanwhile:
 * its parse is kept with it, so that a brand with a logo of megabytes is not parsed again for each document. Nothing
 * changes a brand it is given (documents/brand.ts underBrand copies the request). */
export function accountBrand(keys: KeyStore, pipeline: DocumentPipeline): RequestHandler {
  const parsed = new Map<string, { text: string; brand: Brand | undefined }>();
  const brandOf = async (account: string): Promise<Brand | undefined> => {
    const text = await keys.getBrand(account);
    if (text === undefined) return undefined;
    const kept = parsed.get(account);
    if (kept?.text === text) return kept.brand;
    const brand = parse(text);
    parsed.delete(account);
    if (parsed.size >= PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
    parsed.set(account, { text, brand });
    return brand;
  };
  return async (req, res, next) => {
    const brand = await brandOf(res.locals.account as string);
    res.locals.brand = brand;
    // No Accept-Language, or one that prefers nothing (`*`, what fetch() sends by default).
    const asked = req.get('accept-language')?.trim();
    if (brand?.language && (!asked || asked === '*')) {
      const locale = pipeline.locale([brand.language]);
      res.locals.locale = locale;
      res.set('Content-Language', locale.tag);
    }
    next();
  };
}

/** GET and PUT /brand, behind the API key (`auth`) and, for PUT, the body's limits (`body`). */
export function brandRoutes(keys: KeyStore, pipeline: DocumentPipeline, auth: RequestHandler, body: RequestHandler[]): Router {
  const router = express.Router();
  const other = otherMethods(['GET', 'PUT']);
  router.get('/brand', auth, async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json((await stored(keys, res.locals.account as string)) ?? {});
  });
  router.put('/brand', auth, ...body, async (req, res) => {
    if (bodyKind(req.get('content-type')) !== 'json') throw requestErrors.unsupportedMediaType(req.get('content-type'), 'application/json');
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const brand = await pipeline.brand(await pipeline.parse('json', raw));
    // An empty brand is none: documents are then made as without one.
    await keys.putBrand(res.locals.account as string, Object.keys(brand).length > 0 ? JSON.stringify(brand) : undefined);
    res.set('Cache-Control', 'no-store');
    res.json(brand);
  });
  router.all('/brand', other);
  return router;
}
