// Starting Chromium for printing: Debian's chromium-headless-shell over a DevTools pipe, with its own background
// traffic off and a fontconfig without system fonts (font-isolation.ts). Also the one way to end a browser: its
// whole process group. This is the only module that launches puppeteer.
import puppeteer, { type Browser } from 'puppeteer';
import { isolatedFontEnv } from './font-isolation';

export async function launchChromium(opts: { executablePath: string; sandbox: boolean }): Promise<Browser> {
  return puppeteer.launch({
    executablePath: opts.executablePath,
    headless: 'shell',
    // DevTools over a pipe rather than a WebSocket on loopback TCP: no framing, masking or TCP stack for the
    // ~45 KB of HTML sent and the PDF read back per render.
    pipe: true,
    // The network is closed to the page anyway; these flags stop Chromium's own background traffic.
    args: [
      ...(opts.sandbox ? [] : ['--no-sandbox']),
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-default-apps',
      '--disable-extensions',
      '--no-first-run',
      '--disable-quic',
      '--font-render-hinting=none',
    ],
    env: await isolatedFontEnv(),
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/** Kills a browser's process group: every helper (zygote, renderers, GPU) goes with the main process. */
export function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
