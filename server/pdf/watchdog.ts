// The browser's watchdog: a crash ends the DevTools connection and is seen at once, but a browser that hangs (stopped,
// deadlocked, swapping) keeps its connection open and answers nothing, so every render would wait its whole deadline.
// Every `intervalMs` the watchdog makes a cheap DevTools call; no answer within `timeoutMs` calls `onHung` (the pool
// then kills the browser's process group and launches a new one). Must not know about pages or documents.

export interface WatchdogOptions {
  intervalMs: number;
  timeoutMs: number;
  /** A cheap call to the browser (Browser.getVersion); skipped when it returns undefined (no browser right now). */
  probe: () => Promise<unknown> | undefined;
  onHung: () => void;
}

export function startWatchdog(opts: WatchdogOptions): { stop(): void } {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    const call = opts.probe();
    if (!call) return;
    busy = true;
    let answered = false;
    const deadline = setTimeout(() => {
      if (!answered) opts.onHung();
    }, opts.timeoutMs);
    void call
      .catch(() => undefined) // A failed call is a disconnect, which the pool sees by itself.
      .finally(() => {
        answered = true;
        clearTimeout(deadline);
        busy = false;
      });
    // A hung call never settles: the next probe waits for a new browser, not for it.
    setTimeout(() => {
      busy = false;
    }, opts.timeoutMs + 10).unref();
  }, opts.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
