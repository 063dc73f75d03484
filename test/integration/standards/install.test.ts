// The install step (server/standards/install.ts) on real folders and a real HTTP publisher on a local port: what a
// mirror holds is installed with its SHA-256 checked, a wrong one stops the step naming the artefact before anything
// is compiled, a second run keeps what is there, a changed file is put back, and a publisher's archive (tar.gz or
// zip, a top folder to strip, files renamed, CRLF line endings made LF) gives the same files as a mirror. Compiling
// from the sources (child processes) is test/e2e/standards.test.ts's.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { InstallError, installStandards, type InstallOptions } from '../../../server/standards/install';
import { installedProblems, readRecord } from '../../../server/standards/installed';
import { loadManifest, type Artefact, type Manifest } from '../../../server/standards/manifest';
import { takenFiles, treeDigest } from '../../../server/standards/tree';
import { STANDARDS_DIR } from '../../helpers/schematron';

const tmp = (prefix: string): string => fs.mkdtempSync(path.join(os.tmpdir(), `standards-${prefix}-`));
const quiet = (): void => undefined;

async function installError(o: InstallOptions): Promise<InstallError> {
  try {
    await installStandards(o);
  } catch (err) {
    expect(err).to.be.instanceOf(InstallError);
    return err as InstallError;
  }
  throw new Error('the install step did not stop');
}

describe('the standards install step', function () {
  // The installed standards folder serves as the mirror: it holds every artefact's files where a mirror does, and the
  // compiled rule sets where a mirror's cache does.
  const manifest = loadManifest();
  const mirror = STANDARDS_DIR;

  it('installs every artefact from a mirror, checked, then keeps it on the next run', async function () {
    const dest = tmp('dest');
    const first = await installStandards({ manifest, dest, mirror, log: quiet });
    expect(first.artefacts.installed).to.deep.equal(manifest.artefacts.map((a) => a.id));
    expect(first.compiled.fromMirror).to.have.length(manifest.compile.length);
    expect(installedProblems(manifest, dest)).to.deep.equal([]);
    for (const a of manifest.artefacts) {
      const problems: string[] = [];
      expect(treeDigest(takenFiles(a, dest, 'mirror', problems)), a.id).to.equal(a.sha256);
      expect(problems).to.deep.equal([]);
    }
    const sch = path.join(dest, 'peppol-bis-3', 'PEPPOL-EN16931-UBL.sch');
    const before = fs.statSync(sch).mtimeMs;
    const second = await installStandards({ manifest, dest, mirror, log: quiet });
    expect(second.artefacts).to.deep.equal({ kept: manifest.artefacts.map((a) => a.id), installed: [] });
    expect(second.compiled.kept).to.have.length(manifest.compile.length);
    expect(fs.statSync(sch).mtimeMs).to.equal(before);

    // A file changed in the standards folder is noticed (its artefact's digest) and put back.
    fs.appendFileSync(sch, '<!-- changed -->');
    const third = await installStandards({ manifest, dest, mirror, log: quiet });
    expect(third.artefacts.installed).to.deep.equal(['peppol-bis-3']);
    expect(fs.readFileSync(sch, 'utf8')).to.equal(fs.readFileSync(path.join(mirror, 'peppol-bis-3', 'PEPPOL-EN16931-UBL.sch'), 'utf8'));
  });

  it('a wrong SHA-256 stops the step naming the artefact and what was found, before any rule set is compiled', async function () {
    const dest = tmp('dest');
    const wrong: Manifest = {
      ...manifest,
      artefacts: manifest.artefacts.map((a) => (a.id === 'schxslt' ? { ...a, sha256: '0'.repeat(64) } : a)),
    };
    const schxslt = manifest.artefacts.find((a) => a.id === 'schxslt')!;
    const err = await installError({ manifest: wrong, dest, mirror, log: quiet });
    expect(err.problems).to.deep.equal([
      `schxslt (${schxslt.name} ${schxslt.version}): the 13 files from ${mirror} have SHA-256 ${schxslt.sha256}, the manifest says ${'0'.repeat(64)}`,
    ]);
    expect(fs.existsSync(path.join(dest, 'tools')), 'nothing of it copied').to.equal(false);
    expect(fs.existsSync(path.join(dest, 'compiled')), 'nothing compiled').to.equal(false);
    const recorded = Object.keys(readRecord(dest)!.artefacts);
    expect(recorded).to.include('peppol-bis-3');
    expect(recorded).to.not.include('schxslt');
  });

  it('an artefact missing from the mirror stops the step naming it and the file it lacks', async function () {
    const partial = tmp('mirror');
    fs.cpSync(path.join(mirror, 'ubl-2.1'), path.join(partial, 'ubl-2.1'), { recursive: true });
    const err = await installError({ manifest: { ...manifest, compile: [] }, dest: tmp('dest'), mirror: partial, log: quiet });
    expect(err.problems).to.have.length.above(manifest.artefacts.length - 2);
    expect(err.message).to.contain(`xrechnung: no file ${path.join(partial, 'xrechnung/LICENSE')}`);
    expect(err.message).to.not.contain('ubl-2.1:');
  });

  describe("from a publisher's archive over HTTP", function () {
    let server: http.Server;
    let base: string;
    const served = tmp('publisher');

    before(async function () {
      server = http.createServer((req, res) => {
        const file = path.join(served, path.basename(req.url ?? ''));
        if (!fs.existsSync(file)) {
          res.writeHead(404).end('not found');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(fs.readFileSync(file));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      // The publisher's layout: a top folder, schemas among files not taken, a rules file under another name, a
      // licence that the archive wrote with CRLF line endings (as GitHub does for a .gitattributes eol=crlf).
      const top = path.join(served, 'src', 'pub-1.0');
      fs.mkdirSync(path.join(top, 'schemas', 'common'), { recursive: true });
      fs.mkdirSync(path.join(top, 'rules'), { recursive: true });
      fs.writeFileSync(path.join(top, 'schemas', 'main.xsd'), '<xs:schema/>\n');
      fs.writeFileSync(path.join(top, 'schemas', 'common', 'types.xsd'), '<xs:schema id="t"/>\n');
      fs.writeFileSync(path.join(top, 'schemas', 'notes.txt'), 'not taken\n');
      fs.writeFileSync(path.join(top, 'rules', 'x-preprocessed.sch'), '<schema/>\n');
      fs.writeFileSync(path.join(top, 'LICENSE'), 'Line one\r\nLine two\r\n');
      execFileSync('tar', ['-czf', path.join(served, 'pub-1.0.tar.gz'), '-C', path.join(served, 'src'), 'pub-1.0']);
      execFileSync('python3', ['-m', 'zipfile', '-c', path.join(served, 'pub-1.0.zip'), 'schemas', 'rules', 'LICENSE'], { cwd: top });
    });
    after(() => server.close());

    const artefact = (url: string, strip: number): Artefact => ({
      id: 'pub',
      name: 'A publisher',
      version: '1.0',
      publisher: 'P',
      licence: 'L',
      url,
      strip,
      take: [
        { from: 'schemas', to: 'pub/xsd', include: ['**/*.xsd'] },
        { from: 'rules/x-preprocessed.sch', to: 'pub/x.sch' },
        { from: 'LICENSE', to: 'pub/LICENSE', lf: true },
      ],
      sha256: '',
    });

    /** The digest of the same files as a mirror holds them (LF, renamed, in vendor/'s layout). */
    function mirrorDigest(): string {
      const m = tmp('pub-mirror');
      fs.mkdirSync(path.join(m, 'pub', 'xsd', 'common'), { recursive: true });
      fs.writeFileSync(path.join(m, 'pub', 'xsd', 'main.xsd'), '<xs:schema/>\n');
      fs.writeFileSync(path.join(m, 'pub', 'xsd', 'common', 'types.xsd'), '<xs:schema id="t"/>\n');
      fs.writeFileSync(path.join(m, 'pub', 'x.sch'), '<schema/>\n');
      fs.writeFileSync(path.join(m, 'pub', 'LICENSE'), 'Line one\nLine two\n');
      return treeDigest(takenFiles(artefact('', 0), m, 'mirror', []));
    }

    for (const [kind, file, strip] of [
      ['tar.gz with a top folder', 'pub-1.0.tar.gz', 1],
      ['zip without one', 'pub-1.0.zip', 0],
    ] as const) {
      it(`a ${kind}: downloaded, unpacked, the files taken and checked as a mirror's would be`, async function () {
        const dest = tmp('dest');
        const a = { ...artefact(`${base}/${file}`, strip), sha256: mirrorDigest() };
        const s = await installStandards({ manifest: { artefacts: [a], compile: [], ruleSets: [] }, dest, log: quiet });
        expect(s.artefacts.installed).to.deep.equal(['pub']);
        const found = execFileSync('find', ['.', '-type', 'f'], { cwd: dest }).toString().trim().split('\n').sort();
        expect(found).to.deep.equal([
          './installed.json',
          './pub/LICENSE',
          './pub/x.sch',
          './pub/xsd/common/types.xsd',
          './pub/xsd/main.xsd',
        ]);
        expect(fs.readFileSync(path.join(dest, 'pub', 'LICENSE'), 'utf8')).to.equal('Line one\nLine two\n');
        expect(readRecord(dest)!.artefacts.pub).to.include({ source: a.url, version: '1.0' });
      });
    }

    it('a publisher that answers 404, or an archive without the folder to strip, stops the step naming the artefact and URL', async function () {
      const missing = { ...artefact(`${base}/pub-2.0.tar.gz`, 1), sha256: mirrorDigest() };
      const err = await installError({ manifest: { artefacts: [missing], compile: [], ruleSets: [] }, dest: tmp('dest'), log: quiet });
      expect(err.problems).to.have.length(1);
      expect(err.problems[0]).to.match(new RegExp(`^pub: ${missing.url} could not be downloaded: .*404.* \\(A publisher 1\\.0\\)$`));
      const flat = { ...artefact(`${base}/pub-1.0.zip`, 1), sha256: mirrorDigest() };
      const err2 = await installError({ manifest: { artefacts: [flat], compile: [], ruleSets: [] }, dest: tmp('dest'), log: quiet });
      expect(err2.problems[0]).to.contain(`pub: ${flat.url} could not be unpacked: ${flat.url}: expected one top folder to strip, found`);
    });
  });
});
