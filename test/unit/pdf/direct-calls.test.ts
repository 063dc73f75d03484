// The split of a browser's DevTools pipe between puppeteer and the direct calls (server/pdf/direct-calls.ts): every
// byte of every other message reaches puppeteer in order, each direct answer is taken whole, however the pipe cuts
// the bytes into chunks (every cut of a small stream, and any cuts of any stream: fast-check, fixed seed); answers settle their
// calls, errors reject them, a closed page's calls fail, a closed pipe fails them all and gives the pipe back.
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import fc from 'fast-check';
import { AnswerFilter, DIRECT_FIRST_ID, directAnswerId, DirectCalls } from '../../../server/pdf/direct-calls';

/** Messages as Chromium writes them: puppeteer's answers, events, direct answers, and look-alikes that are not. */
const MESSAGES = [
  '{"id":1,"result":{}}',
  '{"method":"Target.attachedToTarget","params":{"targetInfo":{"id":"ABC"}}}',
  `{"id":${DIRECT_FIRST_ID},"result":{"data":"JVBERi0xLjQK"},"sessionId":"S1"}`,
  '{"id":2,"result":{"nested":{"id":1000000001}}}',
  `{"id":${DIRECT_FIRST_ID - 1},"result":{}}`,
  '{"id":"1000000005","result":{}}',
  '{"id":99999999999,"result":{}}',
  `{"id":${DIRECT_FIRST_ID + 7},"error":{"code":-32000,"message":"Session closed"}}`,
  '{"method":"Runtime.consoleAPICalled","params":{"args":[{"value":"{\\"id\\":1000000003"}]}}',
  `{"id":${DIRECT_FIRST_ID + 12},"result":{"text":"ä€😀"}}`,
  '{"id":3,"result":{"text":"ä€😀"}}',
];
const isDirect = (m: string) => /^\{"id":(\d{10}),/.test(m) && Number(/^\{"id":(\d+)/.exec(m)![1]) < 1e10;
const STREAM = Buffer.from(MESSAGES.map((m) => `${m}\0`).join(''), 'utf8');
const PASSED = Buffer.from(
  MESSAGES.filter((m) => !isDirect(m))
    .map((m) => `${m}\0`)
    .join(''),
  'utf8',
);
const ANSWERS = MESSAGES.filter(isDirect);

function run(chunks: Buffer[], start?: Buffer): { passed: Buffer; answers: string[]; ids: number[]; calls: number } {
  const passed: Buffer[] = [];
  const answers: string[] = [];
  const ids: number[] = [];
  let calls = 0;
  const filter = new AnswerFilter(
    (bytes) => {
      calls++;
      passed.push(Buffer.from(bytes));
    },
    (id, text) => {
      ids.push(id);
      answers.push(text);
    },
  );
  if (start) filter.push(start);
  for (const chunk of chunks) filter.push(chunk);
  return { passed: Buffer.concat(passed), answers, ids, calls };
}

describe('the direct DevTools calls (direct-calls.ts)', () => {
  it('tells a direct answer by its first bytes, and waits when they have not all come', () => {
    const cases: [string, number | undefined][] = [
      [`{"id":${DIRECT_FIRST_ID},"result":{}}`, DIRECT_FIRST_ID],
      ['{"id":12,"result":{}}', 0],
      ['{"method":"X"}', 0],
      ['{"id":"1000000000"}', 0],
      ['{"id":10000000000,', 0],
      ['{"id":1000000000', undefined],
      ['{"i', undefined],
      ['', undefined],
    ];
    for (const [text, id] of cases) expect(directAnswerId(Buffer.from(text), 0), text).to.equal(id);
  });

  it('splits the stream whole at every cut into two chunks, and into one chunk a byte', () => {
    expect(ANSWERS).to.have.length(3);
    for (let cut = 0; cut <= STREAM.length; cut++) {
      const { passed, answers } = run([STREAM.subarray(0, cut), STREAM.subarray(cut)]);
      expect(passed.equals(PASSED), `cut at ${cut}`).to.equal(true);
      expect(answers, `cut at ${cut}`).to.deep.equal(ANSWERS);
    }
    const bytes = run(Array.from(STREAM, (_, i) => STREAM.subarray(i, i + 1)));
    expect(bytes.passed.equals(PASSED)).to.equal(true);
    expect(bytes.answers).to.deep.equal(ANSWERS);
    expect(bytes.ids).to.deep.equal([DIRECT_FIRST_ID, DIRECT_FIRST_ID + 7, DIRECT_FIRST_ID + 12]);
  });

  it('splits any stream of these messages (a 200 KB answer among them) cut anywhere whole (fast-check, 300 cases)', () => {
    const big = `{"id":${DIRECT_FIRST_ID + 99},"result":{"data":"${'A'.repeat(200_000)}"}}`;
    const message = fc.oneof({ weight: 20, arbitrary: fc.constantFrom(...MESSAGES) }, { weight: 1, arbitrary: fc.constant(big) });
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 200 }),
        // Cuts anywhere, and cuts within the first bytes of a message (where its id is read).
        fc.array(fc.double({ min: 0, max: 1, noNaN: true })),
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 24 }))),
        (drawn, anywhere, nearStarts) => {
          // After a message of puppeteer's, as after the start-up call (before the first NUL, only an awaited answer is
          // known: the test below).
          const messages = [MESSAGES[0]!, ...drawn];
          const texts = messages.map((m) => `${m}\0`);
          const stream = Buffer.from(texts.join(''));
          const starts = texts.map((_, i) => Buffer.byteLength(texts.slice(0, i).join('')));
          const cuts = [
            ...anywhere.map((c) => Math.floor(c * stream.length)),
            ...nearStarts.map(([m, off]) => starts[m % starts.length]! + off),
          ];
          const at = [...new Set(cuts.filter((c) => c > 0 && c < stream.length))].sort((x, y) => x - y);
          const chunks = [0, ...at].map((from, i) => stream.subarray(from, at[i] ?? stream.length));
          const { passed, answers } = run(chunks);
          expect(passed.equals(Buffer.from(texts.filter((_, i) => !isDirect(messages[i]!)).join('')))).to.equal(true);
          expect(answers).to.deep.equal(messages.filter(isDirect));
        },
      ),
      { seed: 1_000_000_000, numRuns: 300, endOnFailure: true },
    );
  });

  it('gives a chunk with nothing taken from it to puppeteer as it came, in one piece', () => {
    const chunk = Buffer.from('{"id":1,"result":{}}\0{"method":"X"}\0{"id":2,');
    const { passed, calls } = run([chunk]);
    expect(calls).to.equal(1);
    expect(passed.equals(chunk)).to.equal(true);
  });

  it("attached between two messages, takes an awaited answer that comes first (the start-up call's), and only it", () => {
    const answer = Buffer.from(`{"id":${DIRECT_FIRST_ID},"result":{}}\0`);
    const rest = Buffer.from('{"id":1,"result":{}}\0');
    for (const awaited of [true, false]) {
      const passed: Buffer[] = [];
      const answers: string[] = [];
      const filter = new AnswerFilter(
        (bytes) => passed.push(bytes),
        (_, text) => answers.push(text),
        (id) => awaited && id === DIRECT_FIRST_ID,
      );
      filter.push(Buffer.concat([answer, rest]));
      expect(answers, `awaited: ${awaited}`).to.have.length(awaited ? 1 : 0);
      expect(Buffer.concat(passed).equals(awaited ? rest : Buffer.concat([answer, rest])), `awaited: ${awaited}`).to.equal(true);
    }
  });

  it('attached in the middle of a message, passes everything up to its end (a look-alike in it included)', () => {
    const tail = Buffer.from(`"x":{"id":${DIRECT_FIRST_ID},"y":1}}\0`);
    const { passed, answers } = run([STREAM], tail);
    expect(passed.equals(Buffer.concat([tail, PASSED]))).to.equal(true);
    expect(answers).to.deep.equal(ANSWERS);
  });

  describe('calls over a pipe', () => {
    function pipe(): { calls: DirectCalls; sent: string[]; read: PassThrough; seen: Buffer[] } {
      const write = new PassThrough();
      const read = new PassThrough();
      const sent: string[] = [];
      write.on('data', (b: Buffer) => sent.push(...b.toString().split('\0').filter(Boolean)));
      const seen: Buffer[] = [];
      read.on('data', (b: Buffer) => seen.push(b)); // puppeteer's listener
      return { calls: new DirectCalls(write, read), sent, read, seen };
    }
    const tick = () => new Promise((r) => setImmediate(r));

    it('writes each call as one message with its own id and session, and settles it with its answer', async () => {
      const { calls, sent, read, seen } = pipe();
      // The first message after attaching: an answer (as the start-up call's may be).
      const first = calls.call(undefined, 'Browser.getVersion');
      read.write(`{"id":${DIRECT_FIRST_ID},"result":{"product":"first"}}\0`);
      expect(await first).to.deep.equal({ product: 'first' });
      sent.length = 0;
      const a = calls.call('S1', 'Runtime.evaluate', { expression: '1' });
      const b = calls.on('S2').send('Page.printToPDF', { paperWidth: 8.5 });
      const c = calls.call(undefined, 'Browser.getVersion');
      await tick();
      expect(sent.map((m) => JSON.parse(m))).to.deep.equal([
        { id: DIRECT_FIRST_ID + 1, method: 'Runtime.evaluate', params: { expression: '1' }, sessionId: 'S1' },
        { id: DIRECT_FIRST_ID + 2, method: 'Page.printToPDF', params: { paperWidth: 8.5 }, sessionId: 'S2' },
        { id: DIRECT_FIRST_ID + 3, method: 'Browser.getVersion', params: {} },
      ]);
      read.write(`{"id":7,"result":{}}\0{"id":${DIRECT_FIRST_ID + 2},"result":{"data":"QUJD"},"sessionId":"S2"}\0`);
      read.write(`{"id":${DIRECT_FIRST_ID + 3},"result":{"product":"HeadlessChrome"}}\0`);
      read.write(`{"id":${DIRECT_FIRST_ID + 1},"error":{"code":-32000,"message":"boom"},"sessionId":"S1"}\0`);
      expect(await b).to.deep.equal({ data: 'QUJD' });
      expect(await c).to.deep.equal({ product: 'HeadlessChrome' });
      const failed = await a.then(
        () => undefined,
        (err: Error) => err.message,
      );
      expect(failed).to.equal('DevTools: boom (-32000)');
      expect(Buffer.concat(seen).toString()).to.equal('{"id":7,"result":{}}\0');
      expect(calls.pending).to.equal(0);
    });

    it("fails a closed page's calls (and only its), and every call once the pipe closes, giving the pipe back", async () => {
      const { calls, read, seen } = pipe();
      const outcome = (p: Promise<unknown>) =>
        p.then(
          () => 'answered',
          (err: Error) => err.message,
        );
      const s1 = outcome(calls.call('S1', 'Runtime.evaluate'));
      const s2 = outcome(calls.call('S2', 'Runtime.evaluate'));
      calls.drop('S1', 'the print page was closed');
      expect(await s1).to.equal('the print page was closed');
      expect(calls.pending).to.equal(1);
      // Puppeteer hears of the close while the call still waits (its browser is disconnected before the print fails).
      let waitingWhenHeard = -1;
      read.on('close', () => (waitingWhenHeard = calls.pending));
      read.end();
      expect(await s2).to.equal('the browser closed its DevTools pipe');
      expect(waitingWhenHeard).to.equal(1);
      expect(await outcome(calls.call('S3', 'Runtime.evaluate'))).to.equal('the browser closed its DevTools pipe');
      expect(calls.pending).to.equal(0);
      expect(seen).to.deep.equal([]);
    });
  });
});
