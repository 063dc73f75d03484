// Where an artefact's files come from for the install step: the publisher's archive, downloaded with curl (which honours
// the machine's proxy settings and CA bundle) and unpacked with tar or unzip into a folder of its own, or a mirror
// folder that holds the same files where vendor/ will (STANDARDS_MIRROR). Either way the files are only found here;
// install.ts checks their digest before anything is copied.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Artefact } from './manifest';
import { takenFiles, type TakenFile } from './tree';

const run = promisify(execFile);

export interface Obtained {
  files: TakenFile[];
  /** Where they came from, as the install step's log says it. */
  source: string;
  /** Sentences for what could not be found. */
  problems: string[];
}

/** The folder `strip` levels below `dir`: each level must be the archive's only folder. */
function stripped(dir: string, strip: number, url: string): string {
  let root = dir;
  for (let i = 0; i < strip; i++) {
    const entries = fs.readdirSync(root, { withFileTypes: true });
    const folders = entries.filter((e) => e.isDirectory());
    if (folders.length !== 1 || entries.length !== 1) {
      throw new Error(`${url}: expected one top folder to strip, found ${entries.map((e) => e.name).join(', ') || 'nothing'}`);
    }
    root = path.join(root, folders[0]!.name);
  }
  return root;
}

/** Downloads and unpacks `artefact`'s archive below `work` (a folder of its own), and finds its files there. */
export async function fromPublisher(artefact: Artefact, work: string): Promise<Obtained> {
  const archive = path.join(work, path.basename(new URL(artefact.url).pathname));
  const unpacked = path.join(work, 'unpacked');
  fs.mkdirSync(unpacked, { recursive: true });
  try {
    await run('curl', ['--fail', '--silent', '--show-error', '--location', '--retry', '3', '--output', archive, artefact.url], {
      maxBuffer: 1 << 20,
    });
  } catch (err) {
    const detail = ((err as { stderr?: string }).stderr ?? (err as Error).message).trim();
    return { files: [], source: artefact.url, problems: [`${artefact.id}: ${artefact.url} could not be downloaded: ${detail}`] };
  }
  try {
    if (/\.zip$/i.test(archive)) await run('unzip', ['-q', '-o', archive, '-d', unpacked], { maxBuffer: 1 << 20 });
    else await run('tar', ['-xzf', archive, '-C', unpacked, '--no-same-owner', '--no-same-permissions'], { maxBuffer: 1 << 20 });
    const root = stripped(unpacked, artefact.strip, artefact.url);
    const problems: string[] = [];
    const files = takenFiles(artefact, root, 'archive', problems);
    return { files, source: artefact.url, problems };
  } catch (err) {
    const detail = ((err as { stderr?: string }).stderr || (err as Error).message).trim();
    return { files: [], source: artefact.url, problems: [`${artefact.id}: ${artefact.url} could not be unpacked: ${detail}`] };
  }
}

/** `artefact`'s files in the mirror folder `mirror`. */
export function fromMirror(artefact: Artefact, mirror: string): Obtained {
  const problems: string[] = [];
  const files = takenFiles(artefact, mirror, 'mirror', problems);
  return { files, source: mirror, problems };
}
