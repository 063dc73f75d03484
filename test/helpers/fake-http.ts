// Stand-ins for express's request and response, holding only what the account modules read and write (headers,
// cookies, body, ip, the app's trust proxy setting; status, headers, cookies set and cleared, the body sent), so that
// their logic is tested without a server.
import type { Request, Response } from 'express';

export interface FakeRequestOptions {
  headers?: Record<string, string>;
  /** The browser's cookies, sent as one Cookie header. */
  cookies?: Record<string, string>;
  method?: string;
  secure?: boolean;
  trustProxy?: boolean;
  body?: unknown;
  ip?: string;
}

export function fakeRequest(opts: FakeRequestOptions = {}): Request {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(opts.headers ?? {})) headers[name.toLowerCase()] = value;
  if (opts.cookies)
    headers.cookie = Object.entries(opts.cookies)
      .map(([n, v]) => `${n}=${v}`)
      .join('; ');
  return {
    method: opts.method ?? 'GET',
    secure: opts.secure ?? false,
    body: opts.body,
    ip: opts.ip,
    get: (name: string) => headers[name.toLowerCase()],
    app: { get: (setting: string) => (setting === 'trust proxy' ? (opts.trustProxy ?? false) : undefined) },
  } as unknown as Request;
}

export interface FakeResponse extends Response {
  /** Every cookie set, in order, with its options. */
  set_cookies: { name: string; value: string; options: Record<string, unknown> }[];
  cleared: { name: string; options: Record<string, unknown> }[];
  sent_headers: Record<string, string>;
  sent_status?: number;
  sent_type?: string;
  sent_body?: string;
}

export function fakeResponse(opts: { headersSent?: boolean; locals?: Record<string, unknown> } = {}): FakeResponse {
  const res = {
    set_cookies: [],
    cleared: [],
    sent_headers: {},
    headersSent: opts.headersSent ?? false,
    locals: opts.locals ?? {},
    cookie(name: string, value: string, options: Record<string, unknown>) {
      res.set_cookies.push({ name, value, options });
      return res;
    },
    clearCookie(name: string, options: Record<string, unknown>) {
      res.cleared.push({ name, options });
      return res;
    },
    set(field: string | Record<string, string>, value?: string) {
      if (typeof field === 'string') res.sent_headers[field] = value!;
      else Object.assign(res.sent_headers, field);
      return res;
    },
    status(code: number) {
      res.sent_status = code;
      return res;
    },
    type(t: string) {
      res.sent_type = t;
      return res;
    },
    send(body: string) {
      res.sent_body = body;
      return res;
    },
  } as unknown as FakeResponse & { sent_headers: Record<string, string> };
  return res;
}
