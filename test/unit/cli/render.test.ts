// The render CLI's arguments and files (cli/render.ts): one file or several (into a folder, each output named after
// its file, two of one name refused), the options by name, at most one e-invoice output, anything else refused with
// the usage; a request file read as a plain JSON body or as a published example (its
// form body and headers read as the API reads them); a received e-invoice told by its first bytes.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { outputPaths, parseArgs, readRequestFile, receivedKindOf } from '../../../server/cli/render';
import { DomainError, isRequestProblem } from '../../../server/errors';
import { tempDir } from '../../helpers/service';

describe('render CLI', function () {
  describe('parseArgs', function () {
    it('reads one file and every option, long or short', function () {
      expect(parseArgs(['in.json', '--theme', 'slate', '--lang', 'fr-FR', '--page-size', 'a4', '-o', 'out.pdf'])).to.deep.equal({
        files: ['in.json'],
        theme: 'slate',
        lang: 'fr-FR',
        pageSize: 'a4',
        output: 'pdf',
        profile: undefined,
        out: 'out.pdf',
      });
      expect(parseArgs(['--out=x.xml', 'r.xml', '--cii', '--profile', 'xrechnung']).files).to.deep.equal(['r.xml']);
      expect(parseArgs(['--out=x.xml', 'r.xml', '--cii', '--profile', 'xrechnung'])).to.include({
        output: 'cii',
        profile: 'xrechnung',
        out: 'x.xml',
      });
    });

    it('makes a PDF unless one e-invoice output is asked for', function () {
      expect(parseArgs(['a.json']).output).to.equal('pdf');
      expect(parseArgs(['a.json', '--ubl']).output).to.equal('ubl');
      expect(parseArgs(['a.json', '--factur-x']).output).to.equal('factur-x');
    });

    it('refuses two outputs or no file, with the usage', function () {
      for (const argv of [['a.json', '--ubl', '--cii'], ['a.json', '--cii', '--factur-x'], [], ['--ubl']])
        expect(() => parseArgs(argv), argv.join(' ')).to.throw(/^Usage: npm run render/);
    });

    it('writes one file where -o says (or where the API names it), several into the -o folder by their own names', function () {
      expect(outputPaths(parseArgs(['a.json', '-o', 'x.pdf']))).to.deep.equal(['x.pdf']);
      expect(outputPaths(parseArgs(['a.json']))).to.deep.equal([undefined]);
      expect(outputPaths(parseArgs(['d/a.json', 'e/b.xml', 'c.pdf', '-o', 'out']))).to.deep.equal(['out/a.pdf', 'out/b.pdf', 'out/c.pdf']);
      expect(outputPaths(parseArgs(['a.json', 'b.json', '--ubl']))).to.deep.equal(['a.xml', 'b.xml']);
      expect(outputPaths(parseArgs(['a.json', 'b.xml', '--factur-x', '-o', 'o']))).to.deep.equal(['o/a.pdf', 'o/b.pdf']);
    });

    it('refuses two files that would be written to one name, naming it', function () {
      expect(() => outputPaths(parseArgs(['d/a.json', 'e/a.json']))).to.throw(/both be written to a\.pdf[\s\S]*Usage/);
      expect(() => outputPaths(parseArgs(['a.json', 'a.xml', '--cii']))).to.throw(/a\.xml/);
    });

    it('refuses an unknown option or a missing value, naming it, then the usage', function () {
      expect(() => parseArgs(['a.json', '--theme'])).to.throw(/--theme[\s\S]*\nUsage: npm run render/);
      expect(() => parseArgs(['a.json', '--evil'])).to.throw(/--evil[\s\S]*\nUsage: npm run render/);
      expect(() => parseArgs(['a.json', '--ubl=yes'])).to.throw(/Usage/);
    });

    it('takes a file named like an option after --, and keeps values as given', function () {
      expect(parseArgs(['--', '--ubl']).files).to.deep.equal(['--ubl']);
      expect(parseArgs(['a.json', '--theme', '../../etc/passwd']).theme).to.equal('../../etc/passwd');
    });
  });

  describe('request and received files', function () {
    const dir = tempDir('render-cli');
    const write = (name: string, content: string | Buffer) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, content);
      return file;
    };

    it('reads a plain JSON body as JSON, with no language preferences', function () {
      const r = readRequestFile(write('plain.json', '{"from":"A","items":[]}'));
      expect(r.kind).to.equal('json');
      expect(JSON.parse(r.body.toString())).to.deep.equal({ from: 'A', items: [] });
      expect(r.languages).to.deep.equal([]);
    });

    it('reads a published example: its string body as sent, its headers as the API reads them', function () {
      const example = {
        request: {
          body: 'from=A&items[0][name]=x',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': 'de-CH, fr;q=0.5' },
        },
      };
      const r = readRequestFile(write('example.json', JSON.stringify(example)));
      expect(r.kind).to.equal('form');
      expect(r.body.toString()).to.equal('from=A&items[0][name]=x');
      expect(r.languages.length).to.equal(2);
      const json = readRequestFile(write('example-json.json', JSON.stringify({ request: { body: { from: 'B' } } })));
      expect(JSON.parse(json.body.toString())).to.deep.equal({ from: 'B' });
    });

    it('reads a file whose `request` has no body as a plain body', function () {
      const r = readRequestFile(write('no-body.json', JSON.stringify({ request: { headers: {} }, from: 'A' })));
      expect(JSON.parse(r.body.toString())).to.deep.equal({ request: { headers: {} }, from: 'A' });
    });

    it('refuses a file that is not JSON as the API refuses such a body: malformed_json, a request problem', function () {
      let caught: unknown;
      try {
        readRequestFile(write('broken.json', '{"from": "A",'));
      } catch (err) {
        caught = err;
      }
      expect(caught).to.be.instanceOf(DomainError);
      expect((caught as DomainError).code).to.equal('malformed_json');
      expect(isRequestProblem((caught as DomainError).code)).to.equal(true);
    });

    it('tells a received PDF or XML by its first bytes (after a byte order mark and spaces), and a request by neither', function () {
      expect(receivedKindOf(write('a.pdf', '%PDF-1.7\n...'))).to.equal('pdf');
      expect(receivedKindOf(write('a.xml', '<?xml version="1.0"?><Invoice/>'))).to.equal('xml');
      expect(receivedKindOf(write('bom.xml', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\n  <Invoice/>')])))).to.equal(
        'xml',
      );
      expect(receivedKindOf(write('req.json', '{"from":"A"}'))).to.equal(undefined);
      expect(receivedKindOf(write('empty', ''))).to.equal(undefined);
      expect(receivedKindOf(write('late.pdf', `${' '.repeat(70)}%PDF-1.7`)), 'only the first 64 bytes').to.equal(undefined);
    });
  });
});
