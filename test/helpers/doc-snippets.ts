// The client snippets of docs/clients.md, read from the page itself (so what is tested is what readers copy), and a
// temporary folder to run one in with DOCGEN_URL and DOCGEN_API_KEY set.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../server/config';
import { tempDir } from './service';

export interface Snippet {
  lang: string;
  source: string;
}

/** The page that holds the client snippets: every fenced code block on it is one. */
export const CLIENTS_PAGE = 'docs/clients.md';

/** The fenced code blocks of docs/clients.md, in order. */
export function docSnippets(page = fs.readFileSync(path.join(projectRoot(), CLIENTS_PAGE), 'utf8')): Snippet[] {
  if (!page.startsWith('# Clients\n')) throw new Error(`${CLIENTS_PAGE} does not start with its "# Clients" title`);
  return [...page.matchAll(/^```(\w+)\n([\s\S]*?)\n```$/gm)].map((m) => ({ lang: m[1] ?? '', source: m[2] ?? '' }));
}

export function snippet(lang: string): string {
  const found = docSnippets().find((s) => s.lang === lang);
  if (!found) throw new Error(`${CLIENTS_PAGE} has no ${lang} block`);
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
