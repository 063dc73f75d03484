// The batch's streamed ZIP (server/batch/zip.ts), read back by a real unzip: every file at its name with its bytes,
// XML deflated and PDFs stored, a file larger than one slice whole, and `add` resolving only once the reader has
// taken the file's bytes (the stream waits for a slow reader), or rejecting when its signal aborts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { expect } from 'chai';
import { ZipStream } from '../../../server/batch/zip';

/** Everything `zip.output` writes, collected. */
function collect(zip: ZipStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      done();
    },
  });
  return pipeline(zip.output, sink).then(() => Buffer.concat(chunks));
}

/** The archive on disk, for unzip. */
function onDisk(archive: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-zip-')), 'batch.zip');
  fs.writeFileSync(file, archive);
  return file;
}

/** Each entry as `unzip -v` lists it: its name and its compression method (Stored, or Defl:N for deflated). */
function entries(file: string): { name: string; method: string }[] {
  const listing = execFileSync('unzip', ['-v', file], { encoding: 'utf8' }).split('\n');
  const rows = listing.slice(
    listing.findIndex((l) => l.startsWith('--------')) + 1,
    listing.findLastIndex((l) => l.startsWith('--------')),
  );
  return rows.map((row) => {
    const [, method, name] = /^\s*\d+\s+(\S+)\s+\d+\s+\S+\s+\S+\s+\S+\s+[0-9a-f]{8}\s\s(.+)$/.exec(row)!;
    return { name: name!, method: method! };
  });
}

const unzipped = (file: string, name: string): Buffer => execFileSync('unzip', ['-p', file, name], { maxBuffer: 16 * 1024 * 1024 });

describe('batch ZIP stream', function () {
  it('writes an archive unzip reads: every file at its name with its bytes, XML deflated and PDFs stored', async function () {
    const zip = new ZipStream();
    const written = collect(zip);
    const signal = new AbortController().signal;
    const xml = Buffer.from(`<?xml version="1.0"?><Invoice>${'<Line>ü €</Line>'.repeat(2000)}</Invoice>`, 'utf8');
    // More than one 64 KiB slice, so that the file is fed in several pieces.
    const pdf = randomBytes(200 * 1024);
    const empty = new Uint8Array(0);
    // A view into a larger buffer: only its own bytes go in.
    const backing = Buffer.from('xxxx%PDF-1.7 viewyyyy', 'latin1');
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 4, 13);
    await zip.add('invoice-1.xml', xml, true, signal);
    await zip.add('invoice-1.pdf', pdf, false, signal);
    await zip.add('empty.pdf', empty, false, signal);
    await zip.add('Facture n° 7.pdf', view, false, signal);
    zip.end();
    const file = onDisk(await written);

    execFileSync('unzip', ['-tq', file]);
    expect(entries(file)).to.deep.equal([
      { name: 'invoice-1.xml', method: 'Defl:N' },
      { name: 'invoice-1.pdf', method: 'Stored' },
      { name: 'empty.pdf', method: 'Stored' },
      { name: 'Facture n° 7.pdf', method: 'Stored' },
    ]);
    expect(unzipped(file, 'invoice-1.xml').equals(xml)).to.equal(true);
    expect(unzipped(file, 'invoice-1.pdf').equals(pdf)).to.equal(true);
    expect(unzipped(file, 'empty.pdf').length).to.equal(0);
    expect(unzipped(file, 'Facture n° 7.pdf').toString('latin1')).to.equal('%PDF-1.7 view');
    expect(fs.statSync(file).size, 'the XML deflated').to.be.below(xml.length + pdf.length);
  });

  it('an archive that is not ended lacks its central directory, which unzip reports', async function () {
    const zip = new ZipStream();
    const chunks: Buffer[] = [];
    zip.output.on('data', (c: Buffer) => chunks.push(c));
    await zip.add('invoice-1.pdf', randomBytes(1000), false, new AbortController().signal);
    await new Promise((resolve) => setImmediate(resolve));
    zip.output.destroy();
    const file = onDisk(Buffer.concat(chunks));
    expect(() => execFileSync('unzip', ['-tq', file], { stdio: 'pipe' })).to.throw();
  });

  it('add waits for the reader: with nobody reading, a large file is not taken; read, it is', async function () {
    const zip = new ZipStream();
    const big = randomBytes(4 * 1024 * 1024);
    let taken = false;
    const adding = zip.add('big.pdf', big, false, new AbortController().signal).then(() => (taken = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(taken, 'taken with no reader').to.equal(false);
    const written = collect(zip);
    await adding;
    expect(taken).to.equal(true);
    zip.end();
    const file = onDisk(await written);
    expect(unzipped(file, 'big.pdf').equals(big)).to.equal(true);
  });

  it('add rejects when its signal aborts while the reader does not take the file', async function () {
    const zip = new ZipStream();
    const controller = new AbortController();
    const adding = zip.add('big.pdf', randomBytes(4 * 1024 * 1024), false, controller.signal);
    setTimeout(() => controller.abort(), 50);
    let failure: unknown;
    await adding.catch((err: unknown) => (failure = err));
    expect(failure).to.be.instanceOf(Error);
    expect((failure as Error).name).to.equal('AbortError');
    zip.output.destroy();
  });
});
