// Turns of the event loop for the synchronous steps of making a document (validating and totalling a request, building
// its HTML, writing its XML, reading a received one into the model, making a PDF an archive): each step waits for its
// turn, and at most one turn is given per pass of the event loop. A step of a long document takes 10-60 ms; fifty
// documents arriving together used to run their steps back to back (the loop held 0.6-0.9 s), and now timers, sockets
// and the other requests' I/O are served between any two. Knows nothing of what the steps are.
//
// How: the waiting steps are resumed one per setImmediate; a setImmediate queued while the loop runs its immediates
// runs at the next pass, after that pass's timers and I/O. A step that throws or is abandoned holds nothing.

const waiting: (() => void)[] = [];
let scheduled = false;

function next(): void {
  const resume = waiting.shift();
  if (waiting.length > 0) setImmediate(next);
  else scheduled = false;
  resume?.();
}

/** Resolves when the caller's synchronous step may run: await it right before the step. */
export function cpuTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      setImmediate(next);
    }
  });
}

/** `step` run at its turn (cpuTurn), its value or error returned. */
export async function inTurn<T>(step: () => T): Promise<T> {
  await cpuTurn();
  return step();
}

/** Steps waiting for their turn (for tests and the metrics). */
export function turnsWaiting(): number {
  return waiting.length;
}
