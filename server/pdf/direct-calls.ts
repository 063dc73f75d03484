// The DevTools calls of each print written straight to the browser's pipe, their answers taken off the pipe before
// puppeteer reads it. Puppeteer stays the browser's owner (launch, targets, pages, events, crashes, every other
// call); for the two calls of a print (the swap and Page.printToPDF) it added a debug logger made for each message,
// an Error captured for each call's stack, a timer for each call, a setImmediate for each message, and the answer's
// bytes copied twice. Measured here, the pool's swap and print of a one-page invoice, five alternating pairs: 0.70-1.09
// ms of Node CPU through puppeteer (mean 0.86), 0.50-0.75 ms this way (mean 0.62); a bare pipe alone, 0.29-0.45 ms.
//
// How the answers are known: these calls get ids from DIRECT_FIRST_ID up, far above puppeteer's (which count from
// 1 for each browser, and a browser is replaced after BROWSER_MAX_RENDERS prints), and Chromium writes an answer
// as `{"id":N,…` followed by a NUL. The bytes of every other message go on to puppeteer unchanged, as the same
// Buffer when nothing was taken from it. Until the first NUL after attaching, everything goes to puppeteer (a
// message may be half read) but an awaited answer that starts a chunk; a start-up call checks that answers are
// found (launch.ts): if Chromium ever wrote them otherwise, the prints go through puppeteer as before.
// Knows nothing of pages, documents or the pool.
import type { Readable, Writable } from 'node:stream';
import type { CDPSession } from 'puppeteer';

/** The first id of a direct call. */
export const DIRECT_FIRST_ID = 1_000_000_000;

const PREFIX = Buffer.from('{"id":', 'latin1');
/** Digits of an id: DevTools ids are 32-bit integers. */
const MAX_ID_DIGITS = 10;

/** What a print asks of a page's DevTools session: puppeteer's CDPSession, or this module's direct calls. */
export type DevToolsCalls = Pick<CDPSession, 'send'>;

interface Waiting {
  resolve(result: unknown): void;
  reject(err: Error): void;
  session: string | undefined;
}

/** What to do with the message that starts at `at` of `bytes`: its id when it is a direct call's answer, 0 when it is
 * not, undefined when too few of its bytes have come to tell. */
export function directAnswerId(bytes: Uint8Array, at: number): number | undefined {
  for (let i = 0; i < PREFIX.length; i++) {
    if (at + i >= bytes.length) return undefined;
    if (bytes[at + i] !== PREFIX[i]) return 0;
  }
  let id = 0;
  for (let i = at + PREFIX.length, digits = 0; ; i++, digits++) {
    if (i >= bytes.length) return undefined;
    const c = bytes[i]!;
    if (c < 0x30 || c > 0x39) return digits > 0 && id >= DIRECT_FIRST_ID ? id : 0;
    if (digits === MAX_ID_DIGITS) return 0;
    id = id * 10 + (c - 0x30);
  }
}

/**
 * Splits what the browser writes between the direct calls' answers and everything else. `pass` gets the rest, in
 * order, as subarrays of the chunks read (whole chunks when nothing was taken); `answer` gets each direct answer's
 * text and id.
 */
export class AnswerFilter {
  /** Inside a message that goes to puppeteer. */
  private passing = true;
  /** Attached where a message may have begun already: until its end, only an answer awaited (`expects`) that starts
   * a chunk is known as one (the first call's answer may be the first message after attaching). */
  private unsure = true;
  /** The parts of the direct answer being read. */
  private taking: Buffer[] | undefined;
  private takingId = 0;
  /** The start of a message too short yet to tell whose it is. */
  private held: Buffer | undefined;

  constructor(
    private readonly pass: (bytes: Buffer) => void,
    private readonly answer: (id: number, text: string) => void,
    private readonly expects: (id: number) => boolean = () => false,
  ) {}

  push(chunk: Buffer): void {
    let bytes = chunk;
    if (this.held) {
      bytes = Buffer.concat([this.held, chunk]);
      this.held = undefined;
    }
    let at = 0;
    let passFrom = -1; // start of the run of bytes going to puppeteer
    const flush = (end: number) => {
      if (passFrom < 0) return;
      this.pass(passFrom === 0 && end === bytes.length ? bytes : bytes.subarray(passFrom, end));
      passFrom = -1;
    };
    if (this.unsure) {
      const id = directAnswerId(bytes, 0);
      if (id && this.expects(id)) [this.unsure, this.passing] = [false, false];
    }
    while (at < bytes.length) {
      if (!this.passing && !this.taking) {
        // A message starts here.
        const id = directAnswerId(bytes, at);
        if (id === undefined) {
          flush(at);
          this.held = bytes.subarray(at);
          return;
        }
        if (id > 0) {
          this.taking = [];
          this.takingId = id;
        } else this.passing = true;
      }
      const end = bytes.indexOf(0, at);
      if (this.taking) {
        flush(at);
        if (end < 0) {
          this.taking.push(bytes.subarray(at));
          return;
        }
        this.taking.push(bytes.subarray(at, end));
        const parts = this.taking;
        this.taking = undefined;
        this.answer(this.takingId, parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts).toString('utf8'));
        at = end + 1;
        continue;
      }
      if (passFrom < 0) passFrom = at;
      if (end < 0) break;
      [this.passing, this.unsure] = [false, false];
      at = end + 1;
    }
    flush(bytes.length);
  }
}

/**
 * Direct calls over one browser's pipe (`write`: the pipe Chromium reads; `read`: the one it writes). Attaching puts
 * a filter in front of `read`'s `data` listeners (puppeteer's).
 */
export class DirectCalls {
  private nextId = DIRECT_FIRST_ID;
  private readonly waiting = new Map<number, Waiting>();
  private closed: Error | undefined;
  private readonly detach: () => void;

  constructor(
    private readonly write: Writable,
    read: Readable,
  ) {
    const filter = new AnswerFilter(
      (bytes) => emit('data', bytes),
      (id, text) => this.settle(id, text),
      (id) => this.waiting.has(id),
    );
    const emit = read.emit.bind(read) as (event: string | symbol, ...args: unknown[]) => boolean;
    const patched = (event: string | symbol, ...args: unknown[]): boolean => {
      if (event === 'data') {
        filter.push(args[0] as Buffer);
        return true;
      }
      // Puppeteer hears of the close first (the browser is then disconnected), so that a print failing here is
      // retried on a new browser, and the browser counted as restarted.
      const heard = emit(event, ...args);
      if (event === 'close') this.close(new Error('the browser closed its DevTools pipe'));
      return heard;
    };
    read.emit = patched as typeof read.emit;
    this.detach = () => {
      if (read.emit === patched) read.emit = emit as typeof read.emit;
    };
  }

  /** `method` with `params` on `session` (a target's session id; none: the browser's own). */
  call(session: string | undefined, method: string, params: object = {}): Promise<unknown> {
    if (this.closed) return Promise.reject(this.closed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, session });
      this.write.write(`${JSON.stringify(session ? { id, method, params, sessionId: session } : { id, method, params })}\0`);
    });
  }

  /** The calls of one session, shaped as puppeteer's CDPSession.send. */
  on(session: string): DevToolsCalls {
    const send = (method: string, params?: object) => this.call(session, method, params);
    return { send: send as DevToolsCalls['send'] };
  }

  /** Calls waiting on `session` fail (its page is closed: Chromium will not answer them). */
  drop(session: string, reason: string): void {
    for (const [id, waiting] of this.waiting) {
      if (waiting.session !== session) continue;
      this.waiting.delete(id);
      waiting.reject(new Error(reason));
    }
  }

  /** Every waiting call fails, and no more are made; the pipe goes to puppeteer alone again. */
  close(err: Error): void {
    if (this.closed) return;
    this.closed = err;
    this.detach();
    for (const waiting of this.waiting.values()) waiting.reject(err);
    this.waiting.clear();
  }

  /** Calls waiting for their answer (for the tests). */
  get pending(): number {
    return this.waiting.size;
  }

  /** Calls made (for the tests). */
  get made(): number {
    return this.nextId - DIRECT_FIRST_ID;
  }

  private settle(id: number, text: string): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return; // dropped with its page
    this.waiting.delete(id);
    let message: { result?: unknown; error?: { message?: string; code?: number } };
    try {
      message = JSON.parse(text) as typeof message;
    } catch (err) {
      waiting.reject(new Error(`an unreadable DevTools answer: ${(err as Error).message}`));
      return;
    }
    if (message.error) waiting.reject(new Error(`DevTools: ${message.error.message ?? 'error'} (${message.error.code ?? '?'})`));
    else waiting.resolve(message.result ?? {});
  }
}
