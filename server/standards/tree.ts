// The files an artefact's takes select, and their digest: the one SHA-256 the manifest gives an artefact, the same
// whether the files come from the publisher's archive or from a mirror (which holds them where vendor/ will). Only
// regular files are taken: a link in an archive is never followed.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import type { Artefact, Take } from './manifest';

export interface TakenFile {
  /** Its path in the standards folder (vendor/), forward slashes. */
  rel: string;
  /** Where it is now. */
  abs: string;
  /** Its line endings are to be made LF when it is copied (and digested). */
  lf?: boolean;
}

/** Every regular file below `dir`, relative to it with forward slashes (none when `dir` is absent). */
function filesBelow(dir: string): string[] {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

/** The files one take selects below `root` (an unpacked archive, or a mirror), as [path there, path in vendor/]. */
function selected(take: Take, root: string, layout: 'archive' | 'mirror'): [string, string][] {
  const base = path.join(root, layout === 'archive' ? take.from : take.to);
  if (!take.include) {
    const isFile = fs.existsSync(base) && fs.lstatSync(base).isFile();
    return isFile ? [[base, take.to]] : [];
  }
  const match = picomatch(take.include);
  return filesBelow(base)
    .filter((f) => match(f))
    .map((f) => [path.join(base, f), take.to === '.' ? f : `${take.to}/${f}`]);
}

/** The files `artefact` takes from `root`: an unpacked archive (its `from` paths) or a mirror (its `to` paths).
 * `problems` gets a sentence for each take that selects nothing (a publisher that moved its files). */
export function takenFiles(artefact: Artefact, root: string, layout: 'archive' | 'mirror', problems: string[]): TakenFile[] {
  const byRel = new Map<string, TakenFile>();
  for (const take of artefact.take) {
    const found = selected(take, root, layout);
    if (found.length === 0) {
      const where = layout === 'archive' ? `the archive's ${take.from}` : path.join(root, take.to);
      problems.push(`${artefact.id}: ${take.include ? `nothing matches ${take.include.join(', ')} in` : 'no file'} ${where}`);
    }
    // A mirror holds the files as committed: only an archive's need their line endings made LF.
    for (const [abs, rel] of found) byRel.set(rel, { rel, abs, ...(take.lf && layout === 'archive' ? { lf: true } : {}) });
  }
  return [...byRel.values()].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/** A taken file's bytes, as they will be in vendor/. */
export function contentOf(f: TakenFile): Buffer {
  const bytes = fs.readFileSync(f.abs);
  return f.lf ? Buffer.from(bytes.toString('latin1').replace(/\r\n/g, '\n'), 'latin1') : bytes;
}

export function fileDigest(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

const sha256 = (bytes: Buffer): string => crypto.createHash('sha256').update(bytes).digest('hex');

/** SHA-256 of the lines `<sha256 of the file>  <rel>` (what sha256sum prints), one per file in `rel` order. */
export function treeDigest(files: readonly TakenFile[]): string {
  const hash = crypto.createHash('sha256');
  for (const f of files) hash.update(`${sha256(contentOf(f))}  ${f.rel}\n`);
  return hash.digest('hex');
}
