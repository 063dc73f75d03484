// The README and the pages of docs/ hold together: every relative Markdown link (and image) leads to a file of the
// repository, every #anchor names a heading of its target by GitHub's rules, nothing points outside the repository,
// and the README stays short enough for a first day (its details live in docs/).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../server/config';

const ROOT = projectRoot();
const README_MAX_LINES = 300;

/** README.md and every page of docs/, as paths from the root. */
function documents(): string[] {
  const pages = fs.readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
  return ['README.md', ...pages.sort().map((name) => `docs/${name}`)];
}

/** The text of a page outside its fenced code blocks, line by line (a fenced line becomes empty, keeping numbers). */
function proseLines(file: string): string[] {
  let fence: string | undefined;
  return fs
    .readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined && marker !== undefined) {
        fence = marker[0]!.repeat(marker.length);
        return '';
      }
      if (fence !== undefined) {
        if (line.trim().startsWith(fence)) fence = undefined;
        return '';
      }
      return line;
    });
}

/** A line without its inline code spans, which hold no links. */
function withoutCode(line: string): string {
  return line.replace(/(`+)[^`]*?\1/g, '');
}

/** GitHub's anchor for a heading: the text as shown, lower-cased, every character that is not a letter, mark, digit,
 * `_`, `-` or space dropped, spaces made `-`; a repeated anchor gets `-1`, `-2`, …. */
function slugs(headings: string[]): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const heading of headings) {
    const shown = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .trim();
    const base = shown
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

function anchorsOf(file: string): Set<string> {
  const headings = proseLines(file).flatMap((line) => {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    return m ? [m[1]!] : [];
  });
  return slugs(headings);
}

interface Link {
  where: string;
  target: string;
}

/** Every inline link and image of a page, outside code, with where it is. */
function links(file: string): Link[] {
  return proseLines(file).flatMap((line, i) =>
    [...withoutCode(line).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => ({
      where: `${file}:${i + 1}`,
      target: m[1]!,
    })),
  );
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** What is wrong with a relative link, or undefined when it leads to a file (and heading) of the repository. */
function problem(link: Link, from: string): string | undefined {
  const [file = '', anchor] = link.target.split('#', 2);
  const target = file === '' ? path.join(ROOT, from) : path.resolve(path.dirname(path.join(ROOT, from)), decodeURIComponent(file));
  const relative = path.relative(ROOT, target);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return 'leaves the repository';
  if (!fs.existsSync(target)) return `no file ${relative}`;
  if (anchor === undefined) return undefined;
  if (!target.endsWith('.md')) return `#${anchor} on a file that is not Markdown`;
  if (!anchorsOf(relative).has(anchor)) return `no heading #${anchor} in ${relative}`;
  return undefined;
}

describe('README.md and docs/: links and anchors', function () {
  it('finds the pages and their links', function () {
    const files = documents();
    expect(files).to.include.members(['README.md', 'docs/api.md', 'docs/errors.md', 'docs/clients.md']);
    expect(files.flatMap(links).length).to.be.greaterThan(100);
  });

  it('every relative link and image leads to a file of the repository, and every #anchor to a heading there', function () {
    const broken = documents().flatMap((file) =>
      links(file)
        .filter((link) => !EXTERNAL.test(link.target))
        .flatMap((link) => {
          const why = problem(link, file);
          return why === undefined ? [] : [`${link.where}: (${link.target}) ${why}`];
        }),
    );
    expect(broken).to.deep.equal([]);
  });

  it('names GitHub anchors as GitHub does', function () {
    const anchors = slugs([
      'Prices that include tax (`prices_include_tax`)',
      'PDF/A-3a and PDF/UA-1 for every PDF — what is checked',
      'A brand for every account (`GET /brand`, `PUT /brand`)',
      "Retry-After of the renderer's 503s",
      '§2 Money and totals',
      'Errors',
      'Errors',
    ]);
    expect([...anchors]).to.deep.equal([
      'prices-that-include-tax-prices_include_tax',
      'pdfa-3a-and-pdfua-1-for-every-pdf--what-is-checked',
      'a-brand-for-every-account-get-brand-put-brand',
      'retry-after-of-the-renderers-503s',
      '2-money-and-totals',
      'errors',
      'errors-1',
    ]);
  });

  it('points nowhere outside the repository: no ../shared, no bare issue or finding numbers', function () {
    const outside = documents().flatMap((file) =>
      fs
        .readFileSync(path.join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\.\.\/shared|\b[Ii]ssues? \d|\bfindings? \d/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(outside).to.deep.equal([]);
  });

  it(`keeps the README within ${README_MAX_LINES} lines, with a contents list linking every page of docs/`, function () {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0)).to.be.at.most(README_MAX_LINES);
    const start = readme.indexOf('\n## Contents\n');
    expect(start, 'a "## Contents" section').to.be.at.least(0);
    const contents = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const listed = new Set([...contents.matchAll(/\]\((docs\/[\w-]+\.md)\)/g)].map((m) => m[1]));
    expect(documents().filter((file) => file.startsWith('docs/') && !listed.has(file))).to.deep.equal([]);
  });
});
