// The client snippets of the README's "Clients" section, read from the README itself (so what is tested is what
// readers copy), and a temporary folder to run one in with DOCGEN_URL and DOCGEN_API_KEY set.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../server/config';
import { tempDir } from './service';

export interface Snippet {
  lang: string;
  source: string;
}

/** The fenced code blocks of the README's "## Clients" section, in order. */
export function readmeSnippets(readme = fs.readFileSync(path.join(projectRoot(), 'README.md'), 'utf8')): Snippet[] {
  const start = readme.indexOf('\n## Clients\n');
  if (start < 0) throw new Error('README.md has no "## Clients" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```(\w+)\n([\s\S]*?)\n```$/gm)].map((m) => ({ lang: m[1] ?? '', source: m[2] ?? '' }));
}

export function snippet(lang: string): string {
  const found = readmeSnippets().find((s) => s.lang === lang);
  if (!found) throw new Error(`README.md's Clients section has no ${lang} block`);
  return found.source;
}

export interface Run {
  dir: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command` in `dir` (a fresh folder unless given) holding `files`, with the service's address and key in the environment.
 * Asynchronous: the service answering the snippet runs in this process.
 */
export function runIn(
  service: { url: string; key: string },
  files: Record<string, string>,
  command: string,
  args: string[],
  dir = tempDir('client'),
): Promise<Run> {
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const env = { ...process.env, DOCGEN_URL: service.url, DOCGEN_API_KEY: service.key };
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: dir, env, timeout: 120000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ dir, status, stdout, stderr }));
  });
}
