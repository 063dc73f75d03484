// Document numbers of any Unicode on every route that names a file (real Chromium, real SQLite): a number of astral
// letters, unpaired surrogates, CJK past 255 bytes, or NFC and NFD spellings of one number gives a 200 with a
// Content-Disposition that decodes to a well-formed name cut at a whole character, a batch's ZIP entries that unzip
// reads and that are unique after NFC, and each 200 counted once: a security review saw a 500 after the
// render, counted against the key, and a ZIP entry of 256 bytes that unzip refused.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { periodOf } from '../../server/quota/quota';
import { E_INVOICE } from '../helpers/e-invoice-request';
import { post, sharedService, tempDir, type TestService } from '../helpers/service';

const ROUTES = ['/', '/ubl', '/cii', '/factur-x'];
const NUMBERS = ['\u{20000}'.repeat(45), `a${'\u{20000}'.repeat(45)}`, '請求書'.repeat(40), '\u202Eفاتورة\u202C-ক্ষ-x\u0302'];

/** The name a Content-Disposition gives (its filename* when there is one). */
function dispositionName(header: string): string {
  const star = /filename\*=UTF-8''([^;]+)/.exec(header);
  return star ? decodeURIComponent(star[1]!) : /filename="([^"]*)"/.exec(header)![1]!;
}

describe('file names of any Unicode number', function () {
  this.timeout(180000);
  let service: TestService;
  let key: string;
  const account = 'filenames';
  before(async function () {
    service = await sharedService();
    ({ key } = await service.keys.createKey(account, 'free'));
  });

  it('every route answers 200 with a well-formed name within 255 bytes, and counts exactly its 200s', async function () {
    let ok = 0;
    for (const number of NUMBERS) {
      for (const route of ROUTES) {
        const body = { number, from: 'A', to: 'B', currency: 'EUR', items: [{ name: 'x', unit_cost: 10 }], e_invoice: E_INVOICE };
        const res = await post(service, body, { path: route, key });
        expect(res.status, `${route} ${JSON.stringify(number)}: ${res.status === 200 ? '' : await res.clone().text()}`).to.equal(200);
        await res.arrayBuffer();
        ok++;
        const name = dispositionName(res.headers.get('content-disposition')!);
        expect(name.isWellFormed() && !name.includes('\uFFFD'), JSON.stringify(name)).to.equal(true);
        expect(Buffer.byteLength(name)).to.be.at.most(255);
      }
    }
    // Half a surrogate pair is refused before anything is made, naming the field, and not counted.
    const half = await post(service, { number: 'INV-\uD800-1', from: 'A', to: 'B', items: [{ name: 'x' }] }, { key });
    expect(half.status).to.equal(400);
    expect(((await half.json()) as { details: { field: string }[] }).details[0]!.field).to.equal('number');
    expect(await service.keys.usage(account, periodOf(new Date()))).to.equal(ok);
  });

  it('a batch of numbers that differ only in NFC, and of 100 CJK characters: a ZIP unzip reads, names unique after NFC', async function () {
    const numbers = ['\uAC00', '\u1100\u1161', '請'.repeat(100), '請'.repeat(100), `${'\u{20000}'.repeat(70)}`];
    const documents = numbers.map((number) => ({ number, from: 'A', to: 'B', items: [{ name: 'x', unit_cost: 1 }] }));
    const res = await post(service, { documents }, { path: '/batch', headers: { accept: 'application/zip' } });
    expect(res.status, await res.clone().text()).to.equal(200);
    const dir = tempDir('names');
    const file = path.join(dir, 'batch.zip');
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    execFileSync('unzip', ['-q', file, '-d', path.join(dir, 'out')]);
    const names = fs.readdirSync(path.join(dir, 'out'));
    expect(names).to.have.length(5);
    expect(new Set(names.map((n) => n.normalize('NFC').toLowerCase())).size).to.equal(5);
    for (const n of names) expect(Buffer.byteLength(n), n).to.be.at.most(255);
    expect(names).to.include('invoice-\uAC00.pdf').and.include('invoice-\uAC00-2.pdf');
  });
});
