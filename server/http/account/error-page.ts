// The account pages' errors as HTML: the one place that turns a DomainError into a page answer. Status and headers
// (Retry-After) come from the error catalogue, as for the API's JSON errors (error-catalogue.ts `toResponse`); the
// body is the form shown again with the message, or the small error page (templates/account/error.hbs). Decides no
// error itself and never echoes what was posted (a form's own values are the caller's to pass back).
import type { Response } from 'express';
import type { DomainError, ErrorCode } from '../../errors';
import type { PageRenderer } from '../../render/pages';
import { toResponse } from '../error-catalogue';

/** A form to show again: its template and its data (with the CSRF token and any value to keep). */
export interface FormAgain {
  name: string;
  data: Record<string, unknown>;
}

/** The heading of the error page for the errors that have no form to show again. */
const TITLES: Partial<Record<ErrorCode, string>> = {
  form_expired: 'Form expired',
  key_not_found: 'Key not found',
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
