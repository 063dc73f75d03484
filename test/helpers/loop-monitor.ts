// How long the main event loop was held, told apart from how long this machine kept every thread waiting.
// monitorEventLoopDelay measures the main loop's lateness, which on a loaded 2-core machine includes the time the
// OS gave the CPU to others (an idle process sees 20-50 ms then). A canary thread measures its own lateness at the
// same time: it runs no work, so its delay is the machine's share. held = main − canary is what the main thread's own
// synchronous work cost. The service of the tests runs in this process, so the main loop is the service's.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const CANARY = `
const { workerData } = require('node:worker_threads');
const shared = new Float64Array(workerData);
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  if (shared[1] !== 0) { shared[0] = 0; shared[1] = 0; }
  shared[0] = Math.max(shared[0], now - last - 2);
  last = now;
}, 2);
`;

export class LoopMonitor {
  private readonly main: ReturnType<typeof monitorEventLoopDelay> = monitorEventLoopDelay({ resolution: 5 });
  private readonly shared = new Float64Array(new SharedArrayBuffer(16));
  private readonly canary: Worker;

  constructor() {
    this.canary = new Worker(CANARY, { eval: true, workerData: this.shared.buffer });
    this.canary.unref();
    this.main.enable();
  }

  reset(): void {
    this.main.reset();
    this.shared[1] = 1;
  }

  /** The main loop's longest delay since reset, the canary's, and their difference (what the main thread held). */
  read(): { mainMs: number; noiseMs: number; heldMs: number } {
    const mainMs = this.main.max / 1e6;
    const noiseMs = this.shared[1] !== 0 ? 0 : this.shared[0]!;
    return { mainMs, noiseMs, heldMs: Math.max(0, mainMs - noiseMs) };
  }

  async stop(): Promise<void> {
    this.main.disable();
    await this.canary.terminate();
  }
}
