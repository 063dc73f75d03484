// The account pages' errors as HTML (error-page.ts): status and Retry-After from the error catalogue, the form shown
// again or the error page, never cached, every value escaped; which errors are the request's own (shown as pages)
// and which pass on to the app's handler (defects, the store failing).
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../../../server/config';
import { DomainError } from '../../../../server/errors';
import { pageErrorOf, pageErrors, sendPageError } from '../../../../server/http/account/error-page';
import { accountErrors } from '../../../../server/http/account/errors';
import { loadPages } from '../../../../server/http/account/pages';
import { fakeRequest, fakeResponse } from '../../../helpers/fake-http';

const HOSTILE = '"><script>alert(1)</script><img src=x onerror=alert(2)>';

describe('account error pages', function () {
  const pages = loadPages(path.join(projectRoot(), 'templates', 'account'));

  it('answers with the catalogue status and Retry-After, as HTML that is never cached, naming the code for the log', function () {
    const res = fakeResponse({ locals: { requestId: 'req-1' } });
    sendPageError(res, pages, accountErrors.tooManySignIns(60));
    expect(res.sent_status).to.equal(429);
    expect(res.sent_headers).to.include({ 'Retry-After': '60', 'Cache-Control': 'no-store' });
    expect(res.sent_type).to.equal('html');
    expect(res.locals.errorCode).to.equal('too_many_sign_ins');
    expect(res.sent_body).to.contain('Too many sign-in attempts. Wait a minute and try again.');
  });

  it('titles the error page by the code, "Error" for the others', function () {
    const titled = fakeResponse();
    sendPageError(titled, pages, accountErrors.keyNotFound());
    expect(titled.sent_status).to.equal(404);
    expect(titled.sent_body).to.contain('<h1>Key not found</h1>');
    const other = fakeResponse();
    sendPageError(other, pages, accountErrors.emailTaken());
    expect(other.sent_body).to.contain('<h1>Error</h1>');
  });

  it('shows the form again with the error, escaping the values kept and the message', function () {
    const res = fakeResponse();
    sendPageError(res, pages, new DomainError('invalid_form', `bad ${HOSTILE}`), {
      name: 'sign-in',
      data: { csrf: HOSTILE, emailValue: HOSTILE },
    });
    expect(res.sent_status).to.equal(400);
    const html = res.sent_body!;
    expect(html).to.contain('action="/account/sign-in"');
    expect(html).to.not.contain('<script>alert').and.not.contain('<img src=x');
    expect(html).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).to.contain('value="&quot;&gt;&lt;script&gt;');
  });

  it("takes the request's own errors as pages: its DomainErrors, a bad path parameter, body-parser's refusals", function () {
    expect(pageErrorOf(accountErrors.formExpired())?.code).to.equal('form_expired');
    expect(pageErrorOf(Object.assign(new URIError('URI malformed'), { status: 400 }))?.code).to.equal('key_not_found');
    expect(pageErrorOf({ type: 'entity.too.large', status: 413, limit: 1000 })?.code).to.equal('body_too_large');
    expect(pageErrorOf({ type: 'charset.unsupported', status: 415, charset: 'x' })?.code).to.be.a('string');
    expect(pageErrorOf({ status: 400, message: 'bad gzip' })?.code).to.be.a('string');
  });

  it("passes on what is not the request's: a service failure, a defect, a URIError without a status, nothing", function () {
    expect(pageErrorOf(new DomainError('store_unavailable', 'busy', { retryAfterSeconds: 1 }))).to.equal(undefined);
    expect(pageErrorOf(new Error('defect'))).to.equal(undefined);
    expect(pageErrorOf(new URIError('x'))).to.equal(undefined);
    expect(pageErrorOf({ status: 500 })).to.equal(undefined);
    expect(pageErrorOf(undefined)).to.equal(undefined);
    expect(pageErrorOf(null)).to.equal(undefined);
  });

  it("the router's handler answers the request's errors as pages and passes on the rest, or anything once headers are sent", function () {
    const handler = pageErrors(pages);
    const passed: unknown[] = [];
    const next = (err?: unknown) => void passed.push(err);
    const res = fakeResponse();
    handler(accountErrors.pageNotFound(), fakeRequest(), res, next);
    expect(res.sent_status).to.equal(404);
    expect(passed).to.deep.equal([]);
    const defect = new Error('defect');
    handler(defect, fakeRequest(), fakeResponse(), next);
    const sent = fakeResponse({ headersSent: true });
    const late = accountErrors.pageNotFound();
    handler(late, fakeRequest(), sent, next);
    expect(passed).to.deep.equal([defect, late]);
    expect(sent.sent_status).to.equal(undefined);
  });
});
