// The error catalogue: every code the source raises is listed once with its status and meaning, and the error table of
// docs/errors.md and the OpenAPI description offer exactly that list; every body has one shape.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig, projectRoot } from '../../../server/config';
import { ACCOUNT_ERROR_CODES, DomainError, ERROR_CODES, isRequestProblem, type ErrorCode } from '../../../server/errors';
import { ERROR_CATALOGUE, toResponse } from '../../../server/http/error-catalogue';
import { loadHttpAssets } from '../../../server/http/http-assets';
import { buildOpenApi } from '../../../server/http/openapi';
import { projectAssets } from '../../helpers/project-assets';

const ROOT = projectRoot();

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** The modules outside server/http/ that may name HTTP headers and statuses: clients of other servers (a logo host,
 * a time-stamping authority: their headers, not the service's), the request type generated from schemas/ (its
 * descriptions are the published API's text) and the process's entry, which prints a request to try. */
const SPEAKS_HTTP = ['logo/fetch-logo.ts', 'logo/logo-cache.ts', 'pdf/timestamp.ts', 'documents/schema-types.ts', 'main.ts'];

/** Every server/ module the core is made of (outside server/http/ and SPEAKS_HTTP). */
function coreFiles(): string[] {
  const server = path.join(ROOT, 'server');
  return sourceFiles(server).filter((file) => {
    const name = path.relative(server, file).split(path.sep).join('/');
    return !name.startsWith('http/') && !SPEAKS_HTTP.includes(name);
  });
}

/** A header's name as HTTP writes it, or quoted in lower case as Node's request and response objects hold it. */
const HEADER_NAME =
  /\b(?:Content-(?:Type|Length|Encoding|Language|Disposition)|Accept(?:-Language|-Encoding)?|Authorization|Retry-After|WWW-Authenticate|Set-Cookie|Cookie|Cache-Control|ETag|If-None-Match|Last-Modified|RateLimit(?:-\w+)?|X-Request-Id|Transfer-Encoding)\b|['"](?:content-type|content-length|content-encoding|content-language|content-disposition|accept|accept-language|authorization|retry-after|cookie|set-cookie|www-authenticate|cache-control|etag)['"]/;
/** A status set on a response. */
const HTTP_CALL = /res\.status\(|\bstatusCode\b|\bstatus:\s*[1-5]\d\d\b/;
/** A three-digit number standing alone: not part of a larger number, a name or a quoted code (`2,678,400`, `-400-`,
 * `'420'`), not a bound in code (`max: 500`, `+ 500`) and not a quantity (`400 ms`). */
const STATUS_NUMBER = /(?<![\w.,'-])(?<![=+:,]\s)\b[1-5]\d\d\b(?![\w.,'-]|\s*(?:ms|KB|MB|px|formatters)\b)/g;

describe('error catalogue', function () {
  it('lists every code once with an HTTP status and a meaning; a request problem is exactly a status under 500', function () {
    expect(Object.keys(ERROR_CATALOGUE).sort()).to.deep.equal([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) {
      const { status, meaning } = ERROR_CATALOGUE[code];
      expect(status, code).to.be.within(400, 599);
      expect(meaning, code).to.match(/\.$/);
      expect(isRequestProblem(code), code).to.equal(status < 500);
    }
  });

  it('every code the source raises is in the catalogue', function () {
    const raised = new Set<string>();
    for (const file of sourceFiles(path.join(ROOT, 'server'))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/new DomainError\(\s*'(\w+)'/g)) raised.add(m[1]!);
    }
    expect(raised.size).to.be.greaterThan(10);
    for (const code of raised) expect(ERROR_CATALOGUE, `raised in server/ but not catalogued: ${code}`).to.have.property(code);
  });

  it('no module outside server/http/ speaks HTTP: no header name and no status, in its code or its comments', function () {
    const statuses = new Set([500, ...Object.values(ERROR_CATALOGUE).map((e) => e.status)]);
    const offenders = coreFiles().flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => {
          const status = [...line.matchAll(STATUS_NUMBER)].find((m) => statuses.has(Number(m[0])));
          const said = HEADER_NAME.exec(line)?.[0] ?? HTTP_CALL.exec(line)?.[0] ?? status?.[0];
          return said === undefined ? [] : [`${path.relative(ROOT, file)}:${i + 1}: ${said}`];
        }),
    );
    expect(offenders).to.deep.equal([]);
  });

  it("the core's errors name no HTTP header: those of keys, routes, methods, Accept and the account pages live in server/http/", function () {
    const core = fs.readFileSync(path.join(ROOT, 'server', 'errors.ts'), 'utf8');
    expect(core).not.to.match(/Authorization|Accept-Language|\bAccept\b|Retry-After|WWW-Authenticate|Cookie|\bAllow\b(?!ed)/);
    // The HTTP-only constructors are where the edge is, and nothing outside it uses them.
    for (const file of sourceFiles(path.join(ROOT, 'server'))) {
      if (file.includes(`${path.sep}http${path.sep}`)) continue;
      expect(fs.readFileSync(file, 'utf8'), path.relative(ROOT, file)).not.to.match(/requestErrors|accountErrors/);
    }
  });

  for (const [file, heading, tableCodes] of [
    ['docs/errors.md', '# Errors', ERROR_CODES],
    ['docs/api.md', '## Errors', ERROR_CODES.filter((c) => !(ACCOUNT_ERROR_CODES as readonly string[]).includes(c))],
  ] as const) {
    it(`${file}'s error table lists every code with its status, and nothing else`, function () {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      expect(text.indexOf(heading), heading).to.be.at.least(0);
      const section = text.slice(text.indexOf(heading));
      const rows = new Map([...section.matchAll(/^\| `(\w+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]));
      expect([...rows.keys()].sort()).to.deep.equal([...tableCodes].sort());
      for (const [code, status] of rows) expect(status, code).to.equal(ERROR_CATALOGUE[code as ErrorCode].status);
      for (const code of ACCOUNT_ERROR_CODES) expect(section, code).to.contain(`\`${code}\``);
    });
  }

  it('the OpenAPI description offers exactly these codes', function () {
    const config = loadConfig({ NODE_ENV: 'test' });
    const api = buildOpenApi(projectAssets(config.limits).schemas, loadHttpAssets(ROOT)) as {
      components: { schemas: { Error: { properties: { code: { enum: string[] } } } } };
    };
    expect([...api.components.schemas.Error.properties.code.enum].sort()).to.deep.equal([...ERROR_CODES].sort());
  });

  it('every error has one body shape, keeping the reference fields; facts become headers', function () {
    for (const code of ERROR_CODES) {
      const { status, headers, body } = toResponse(
        new DomainError(code, 'What failed.', { retryAfterSeconds: 7, allow: ['POST'] }),
        'req-1',
      );
      expect(status).to.equal(ERROR_CATALOGUE[code].status);
      expect(body, code).to.include({
        message: 'What failed.',
        code,
        request_id: 'req-1',
        type: status < 500 ? 'invalid_request' : 'api_error',
      });
      expect(body.error, code).to.equal(status === 401 ? (code === 'missing_api_key' ? 'invalid_request' : code) : 'What failed.');
      const challenge = code === 'missing_api_key' ? 'Bearer realm="api"' : 'Bearer realm="api", error="invalid_token"';
      expect(headers, code).to.deep.equal({
        'Cache-Control': 'no-store',
        'Retry-After': '7',
        Allow: 'POST',
        ...(/_api_key$/.test(code) ? { 'WWW-Authenticate': challenge } : {}),
      });
      if (status === 401 && !/_api_key$/.test(code)) expect(code, 'a 401 without a challenge is a form’s').to.equal('wrong_credentials');
    }
  });

  it("the load balancer's own error (deploy/nginx.conf) has the same body shape, a catalogued code and Retry-After", function () {
    const conf = fs.readFileSync(path.join(ROOT, 'deploy', 'nginx.conf'), 'utf8');
    const location = conf.slice(conf.indexOf('location @unavailable'));
    const returned = /return (\d{3}) '(.*)\\n';/.exec(location);
    expect(returned, 'a return in location @unavailable').to.not.equal(null);
    const body = JSON.parse(returned![2]!.replace('$request_id', 'req-1')) as Record<string, unknown>;
    const code = body.code as ErrorCode;
    expect(ERROR_CODES).to.include(code);
    expect(Number(returned![1])).to.equal(ERROR_CATALOGUE[code].status);
    expect(body).to.deep.equal({ error: body.message, message: body.message, type: 'api_error', code, request_id: 'req-1' });
    expect(location).to.match(/add_header Retry-After \d+ always;/);
    expect(conf).to.match(/error_page 502 504 = @unavailable;/);
  });
});
