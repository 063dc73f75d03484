// Process trees from /proc, to prove that no Chromium process outlives the service.
import fs from 'node:fs';

/** Every live descendant of a process (the service's own implementation, from /proc). */
export { descendants } from '../../server/pdf/process-memory';

export function alive(pid: number): boolean {
  try {
    const state = fs
      .readFileSync(`/proc/${pid}/stat`, 'utf8')
      .slice(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').lastIndexOf(')') + 2, -1)[0];
    return state !== 'Z';
  } catch {
    return false;
  }
}

export async function waitGone(pids: number[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  let left = pids.filter(alive);
  while (left.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    left = left.filter(alive);
  }
  return left;
}
