// What this process's event loop did while some work ran, as counts, not times: a loaded machine slows the work and
// the loop alike, so a count does not depend on the machine being idle. Work done on the loop's own thread (a
// synchronous decode, a parse that never yields, rules run in this thread) gives the loop nothing until it ends; work
// on another thread leaves it turning.

/** `work`'s result and the passes this event loop made until it settled: an immediate that queues itself again runs
 * once in every pass. It keeps this thread busy meanwhile (a pass costs microseconds): for work of a second or two. */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let counting = true;
  const count = (): void => {
    if (!counting) return;
    turns++;
    setImmediate(count);
  };
  setImmediate(count);
  try {
    return { result: await work(), turns };
  } finally {
    counting = false;
  }
}

/** `work`'s result and how many times a 1 ms interval timer ran until it settled: the loop's free moments, at most
 * one a millisecond, so that counting costs this thread next to nothing (for work of seconds, or whose main-thread CPU
 * time is measured too). A loop held by one long block runs the timer once after it. */
export async function ticksDuring<T>(work: () => Promise<T>): Promise<{ result: T; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  try {
    return { result: await work(), ticks };
  } finally {
    clearInterval(timer);
  }
}
