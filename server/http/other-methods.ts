// What a path answers to a method it does not serve: OPTIONS is answered 204 with `Allow`, any other method is 405
// `method_not_allowed` naming the methods in `Allow` (JSON, as every error). Mounted after a path's own handlers, so
// that express's bare "GET,HEAD" text answer to OPTIONS and its 404 for other methods never reach a client.
import type { RequestHandler } from 'express';
import { requestErrors } from './request-errors';

export function otherMethods(allow: readonly string[]): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'OPTIONS') {
      res
        .set('Allow', [...allow, 'OPTIONS'].join(', '))
        .status(204)
        .end();
      return;
    }
    next(requestErrors.methodNotAllowed(req.method, req.baseUrl + req.path, [...allow, 'OPTIONS']));
  };
}
