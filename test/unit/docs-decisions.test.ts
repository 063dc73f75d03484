// The decisions the code cites are in the repository (docs/decisions.md): every "docs/decisions.md §N" in the sources,
// tests, schemas, scripts, templates, the README and the pages of docs/ names a section that exists there, and no
// citation points elsewhere (a citation without the path meant the shared spec beside the clone, which a reader of the repository
// lacks).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../server/config';

const ROOT = projectRoot();
const DECISIONS = path.join(ROOT, 'docs', 'decisions.md');
const SCANNED = ['server', 'test', 'schemas', 'scripts', 'templates'];
const TEXT_FILE = /\.(ts|js|mjs|json|hbs|css|md|sh)$/;

// Written with \u00a7 so that this file does not cite anything itself.
const CITATION = /docs\/decisions\.md((?:,? (?:and )?\u00a7\d+)+)/g;
const BARE_CITATION = /(?<!docs\/)decisions(?:\.md)? ?\u00a7/g;

function textFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : textFiles(full);
    return TEXT_FILE.test(e.name) ? [full] : [];
  });
}

/** The README and every page of docs/ (decisions.md included: it may cite its own sections). */
function documents(): string[] {
  const docs = path.join(ROOT, 'docs');
  const pages = fs.readdirSync(docs).filter((name) => name.endsWith('.md'));
  return [path.join(ROOT, 'README.md'), ...pages.map((name) => path.join(docs, name))];
}

function scannedFiles(): string[] {
  return [...SCANNED.flatMap((dir) => textFiles(path.join(ROOT, dir))), ...documents()];
}

/** The section numbers of docs/decisions.md, from its `## §N …` headings, in order. */
function sections(): number[] {
  const text = fs.readFileSync(DECISIONS, 'utf8');
  return [...text.matchAll(/^## \u00a7(\d+) \S/gm)].map((m) => Number(m[1]));
}

/** Each citation of the file as `where: §N`, e.g. `server/money/totals.ts:1: §2`. */
function citations(): { where: string; section: number }[] {
  return scannedFiles().flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) =>
        [...line.matchAll(CITATION)].flatMap((m) =>
          [...m[1]!.matchAll(/\u00a7(\d+)/g)].map((n) => ({ where: `${path.relative(ROOT, file)}:${i + 1}`, section: Number(n[1]) })),
        ),
      ),
  );
}

describe('docs/decisions.md and the comments that cite it', function () {
  it('numbers its sections §1, §2, … in order, each once', function () {
    const numbers = sections();
    expect(numbers.length).to.be.greaterThan(0);
    expect(numbers).to.deep.equal(numbers.map((_, i) => i + 1));
  });

  it('has every section the code, tests, schemas, README and docs/ pages cite', function () {
    const known = new Set(sections());
    const cited = citations();
    expect(cited.length, 'citations found').to.be.greaterThan(20);
    const missing = cited.filter((c) => !known.has(c.section)).map((c) => `${c.where}: \u00a7${c.section}`);
    expect(missing, 'cited sections missing from docs/decisions.md').to.deep.equal([]);
  });

  it('names only files and folders that exist (each `server/…`, `schemas/…`, `test/…` path it gives)', function () {
    const text = fs.readFileSync(DECISIONS, 'utf8');
    const named = [...text.matchAll(/`((?:server|schemas|templates|themes|locales|test)\/[\w./-]*)`/g)].map((m) => m[1]!);
    expect(named.length).to.be.greaterThan(20);
    expect(named.filter((p) => !fs.existsSync(path.join(ROOT, p)))).to.deep.equal([]);
  });

  it('is cited by its path: no bare "decisions \u00a7N" that means a file outside the repository', function () {
    const bare = scannedFiles().flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.match(BARE_CITATION) ? [`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(bare).to.deep.equal([]);
  });
});
