// IPv6 forms of private IPv4 addresses: `http://[::127.0.0.1]:port/` passed the private-address check (URL parsing
// writes it ::7f00:1, which ipaddr.js calls unicast) and a connection was attempted. Every form that embeds or
// translates to an IPv4 address (IPv4-compatible ::/96, mapped ::ffff:0:0/96, translated ::ffff:0:0:0/96, NAT64
// 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32) is refused before any socket is opened, as a URL
// and as a redirect's target, against real local HTTP servers: one counting the connections it gets (on :: so that a
// mapped address would reach it), and every socket connect of this process counted.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { fetchLogo, isPublicAddress } from '../../../server/logo/fetch-logo';
import { solidPng } from '../../helpers/png';

const FORMS = [
  '::127.0.0.1',
  '::7f00:1',
  '::10.0.0.1',
  '::169.254.169.254',
  '::ffff:127.0.0.1',
  '::ffff:0:127.0.0.1',
  '64:ff9b::127.0.0.1',
  '64:ff9b:1::7f00:1',
  '2002:7f00:1::',
  '2002:a00:1::1',
  '2001:0:4136:e378:8000:63bf:80ff:fffe',
  '2001::7f00:1',
];

describe('IPv6 forms of IPv4 addresses are not public', function () {
  this.timeout(60000);
  let target: http.Server;
  let port: number;
  let connections = 0;
  let redirector: http.Server;
  let redirectorHost: string;
  let attempts: string[] = [];
  const connect = net.Socket.prototype.connect;

  before(async function () {
    target = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(solidPng(4, 4)));
    target.on('connection', () => connections++);
    await new Promise<void>((r) => target.listen(0, '::', () => r()));
    port = (target.address() as AddressInfo).port;
    redirector = http.createServer((req, res) => res.writeHead(302, { location: decodeURIComponent(req.url!.slice(1)) }).end());
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', () => r()));
    redirectorHost = `127.0.0.1:${(redirector.address() as AddressInfo).port}`;
    // Every socket this process opens toward anything but the redirector is an attempt the guard should have stopped.
    net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
      const o = (Array.isArray(args[0]) ? args[0][0] : args[0]) as { host?: string; port?: number } | undefined;
      if (o && typeof o === 'object' && `${o.host}:${o.port}` !== redirectorHost) attempts.push(`${o.host}:${o.port}`);
      return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
    } as typeof connect;
  });
  after(function () {
    net.Socket.prototype.connect = connect;
    target.close();
    redirector.close();
  });
  beforeEach(function () {
    connections = 0;
    attempts = [];
  });

  const guarded = () => ({ allowPrivate: false, allowedHosts: new Set([redirectorHost]), timeoutMs: 1500, maxBytes: 1 << 20 });

  it('the counting server is reached by a mapped address when private addresses are allowed (control)', async function () {
    const r = await fetchLogo(`http://[::ffff:127.0.0.1]:${port}/logo.png`, { ...guarded(), allowPrivate: true });
    expect(r.ok).to.equal(true);
    expect(connections).to.equal(1);
  });

  it('refuses each form as a URL: no socket opened, no connection', async function () {
    const seen: string[] = [];
    for (const form of FORMS) {
      const started = Date.now();
      const r = await fetchLogo(`http://[${form}]:${port}/logo.png`, guarded());
      seen.push(`${form} → ${r.ok ? 'fetched' : r.reason} (${Date.now() - started} ms)`);
    }
    console.log(`      ${seen.join('\n      ')}\n      sockets opened: ${attempts.length}, connections: ${connections}`);
    for (const line of seen) expect(line).to.match(/→ address_not_public \(\d+ ms\)$/);
    expect(attempts, 'sockets opened').to.deep.equal([]);
    expect(connections).to.equal(0);
  });

  it('refuses each form as the target of a redirect from an allowed host', async function () {
    for (const form of FORMS) {
      const r = await fetchLogo(`http://${redirectorHost}/${encodeURIComponent(`http://[${form}]:${port}/logo.png`)}`, guarded());
      expect(r, form).to.deep.include({ ok: false, reason: 'address_not_public' });
    }
    expect(attempts, 'sockets opened').to.deep.equal([]);
    expect(connections).to.equal(0);
  });

  it('judges a mapped address by its IPv4 address, and every other embedding as not public', function () {
    for (const form of FORMS) expect(isPublicAddress(form), form).to.equal(false);
    expect(isPublicAddress('::ffff:8.8.8.8')).to.equal(true);
    expect(isPublicAddress('::8.8.8.8')).to.equal(false);
    expect(isPublicAddress('64:ff9b::8.8.8.8')).to.equal(false);
    expect(isPublicAddress('2002:808:808::1')).to.equal(false);
    expect(isPublicAddress('2606:4700:4700::1111')).to.equal(true);
    expect(isPublicAddress('8.8.8.8')).to.equal(true);
    expect(isPublicAddress('::')).to.equal(false);
    expect(isPublicAddress('::1')).to.equal(false);
    expect(isPublicAddress('not an address')).to.equal(false);
  });
});
