// How long this machine kept every thread waiting: a canary thread that runs no work measures its own lateness. On a
// loaded 2-core machine an idle process sees 20-50 ms; an event loop's delay beyond the canary's is what that loop's
// own synchronous work cost.
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

export class MachineNoise {
  private readonly shared = new Float64Array(new SharedArrayBuffer(16));
  private readonly canary: Worker;

  constructor() {
    this.canary = new Worker(CANARY, { eval: true, workerData: this.shared.buffer });
    this.canary.unref();
  }

  reset(): void {
    this.shared[1] = 1;
  }

  /** The canary's longest delay (ms) since reset. */
  read(): number {
    return this.shared[1] !== 0 ? 0 : this.shared[0]!;
  }

  async stop(): Promise<void> {
    await this.canary.terminate();
  }
}
