// The account pages' errors as HTML: the one place that turns a DomainError into a page answer. Status and headers
// (Retry-After) come from the error catalogue, as for the API's JSON errors (error-catalogue.ts `toResponse`); the
// body is the form shown again with the message, or the small error page (templates/account/error.hbs). Decides no
// error of the routes and never echoes what was posted (a form's own values are the caller's to pass back); it only
// names the refusals that come before a route runs (the form's body, the path), so that they are pages too.
import type { NextFunction, Request, Response } from 'express';
import { DomainError, isRequestProblem, type ErrorCode } from '../../errors';
import type { PageRenderer } from './pages';
import { toResponse } from '../error-catalogue';
import { fromBodyParser, type BodyParserError } from '../errors-to-http';
import { accountErrors } from './errors';

/** A form to show again: its template and its data (with the CSRF token and any value to keep). */
export interface FormAgain {
  name: string;
  data: Record<string, unknown>;
}

/** The heading of the error page for the errors that have no form to show again. */
const TITLES: Partial<Record<ErrorCode, string>> = {
  form_expired: 'Form expired',
  key_not_found: 'Key not found',
  not_found: 'Page not found',
  body_too_large: 'Form too large',
};

export function sendPageError(res: Response, pages: PageRenderer, err: DomainError, form?: FormAgain): void {
  const { status, headers } = toResponse(err, String(res.locals.requestId ?? ''));
  // The access log names the code, as for the API's errors (errors-to-http.ts).
  res.locals.errorCode = err.code;
  const html = form
    ? pages.render(form.name, { ...form.data, error: err.message })
    : pages.render('error', { title: TITLES[err.code] ?? 'Error', error: err.message });
  res.status(status).set(headers).type('html').set('Cache-Control', 'no-store').send(html);
}

/**
 * A refusal raised before a route ran, as a catalogue error with the same code and message as the API's JSON answer
 * (errors-to-http.ts names body-parser's errors the same way): the form's body too large, in a charset or encoding
 * that is not read, not inflating or cut short; and a path parameter that is not percent-encoded UTF-8 (the only
 * parameters here are key prefixes: such a prefix is no key). A DomainError of the request passes as it is;
 * anything else (a defect, the store failing) is undefined: the app's handler logs it and answers.
 */
export function pageErrorOf(err: unknown): DomainError | undefined {
  if (err instanceof DomainError) return isRequestProblem(err.code) ? err : undefined;
  const e = (err ?? {}) as BodyParserError;
  if (err instanceof URIError && e.status === 400) return accountErrors.keyNotFound();
  return fromBodyParser(e, e.limit ?? 0);
}

/** The account router's error handler: the request's own errors as the error page, everything else passed on. */
export function pageErrors(pages: PageRenderer) {
  return (err: unknown, _req: Request, res: Response, next: NextFunction): void => {
    const pageError = res.headersSent ? undefined : pageErrorOf(err);
    if (!pageError) return next(err);
    sendPageError(res, pages, pageError);
  };
}
