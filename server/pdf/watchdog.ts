// The browser's watchdog: a crash ends the DevTools connection and is seen at once, but a browser that hangs (stopped,
// deadlocked, swapping) keeps its connection open and answers nothing, so every render would wait its whole deadline.
// Every `intervalMs` the watchdog makes a cheap DevTools call; no answer within `timeoutMs` calls `onHung` (the pool
// then kills the browser's process group and launches a new one). Must not know about pages or documents.

export interface WatchdogOptions {
  intervalMs: number;
  timeoutMs: number;
  /** A cheap call to the browser (Browser.getVersion), with the browser asked; undefined when there is none now. */
  probe: () => { browser: unknown; call: Promise<unknown> } | undefined;
  /** Called with the browser that did not answer (which may no longer be the current one). */
  onHung: (browser: unknown) => void;
}

export function startWatchdog(opts: WatchdogOptions): { stop(): void } {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    const probe = opts.probe();
    if (!probe) return;
    const { browser, call } = probe;
    busy = true;
    let answered = false;
    const sentAt = Date.now();
    const deadline = setTimeout(() => {
      // A timer that fires much later than set means this process was stalled, not the browser: its answer may be
      // waiting unread. Only a browser silent while we were listening counts as hung.
      if (!answered && Date.now() - sentAt < opts.timeoutMs + 1000) opts.onHung(browser);
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
