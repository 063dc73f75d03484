// Marks as artifacts what a page's content stream paints outside any tagged marked content: PDF/UA-1 (7.1) wants
// every painted thing either in the structure tree or an /Artifact. Chromium leaves out of its tags what belongs to
// no element: the page-number margin box, backgrounds and clipping paths; and it tags the header row a table
// repeats on each later page as the first page's header cells, which a screen reader would then read again on every
// page: those marked-content sequences (`repeated`, by MCID) become artifacts too.
// Works on the decoded bytes of one content stream and returns new bytes (or undefined when nothing changed); the
// operators are found by a small lexer of the content-stream syntax (pdf-lib's parser keeps no byte positions and
// rewrites operands, so it cannot edit a stream in place). Knows nothing of objects, pages or the structure tree.

// Byte classes of the content-stream syntax: 0 regular, 1 white space, 2 delimiter; 3 starts a number.
const CLASS = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CLASS[c] = 1;
for (const c of [0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]) CLASS[c] = 2;
for (const c of [0x2b, 0x2d, 0x2e, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39]) CLASS[c] = 3;
const isWhite = (c: number | undefined) => c !== undefined && CLASS[c] === 1;
/** True for a byte that ends a regular token (white space, a delimiter, or the end). */
const ends = (c: number | undefined) => c === undefined || CLASS[c] === 1 || CLASS[c] === 2;

/** One operator with its operands: bytes [start, end) of the stream. */
interface Operation {
  op: string;
  kind: Kind;
  start: number;
  end: number;
}

/** Skips a literal string `( … )` starting at `i` (nested parentheses and backslash escapes); returns the end. */
function skipLiteral(b: Uint8Array, i: number): number {
  let depth = 0;
  for (; i < b.length; i++) {
    const c = b[i];
    if (c === 0x5c) i++;
    else if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) return i + 1;
  }
  return i;
}

/** Skips an inline image's data after `ID`: to the `EI` that stands alone between white space. */
function skipInlineImage(b: Uint8Array, i: number): number {
  for (i += 1; i + 2 < b.length; i++) {
    if (b[i] === 0x45 && b[i + 1] === 0x49 && isWhite(b[i - 1]) && ends(b[i + 2])) return i + 2;
  }
  return b.length;
}

/** What an operator does, as far as marking goes. */
const enum Kind {
  Other,
  BeginMarked,
  EndMarked,
  BeginText,
  EndText,
  PathBuild,
  PathPaint,
  TextShow,
  XObjectPaint,
}
const KINDS = new Map<string, Kind>([
  ['BDC', Kind.BeginMarked],
  ['BMC', Kind.BeginMarked],
  ['EMC', Kind.EndMarked],
  ['BT', Kind.BeginText],
  ['ET', Kind.EndText],
  ...['m', 'l', 'c', 'v', 'y', 'h', 're', 'W', 'W*'].map((op) => [op, Kind.PathBuild] as const),
  ...['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'n'].map((op) => [op, Kind.PathPaint] as const),
  ...['Tj', 'TJ', "'", '"'].map((op) => [op, Kind.TextShow] as const),
  ...['Do', 'sh', 'BI'].map((op) => [op, Kind.XObjectPaint] as const),
]);

/** An operator's name and kind. */
interface Operator {
  name: string;
  kind: Kind;
}

/** Operators by their bytes (every operator has at most three): made once, so that lexing allocates none. */
const OPERATORS = new Map<number, Operator>();

/** The operator (or keyword) in bytes [from, to). */
function operatorAt(b: Uint8Array, from: number, to: number): Operator {
  if (to - from > 3) {
    const name = Buffer.from(b.buffer, b.byteOffset + from, Math.min(to - from, 16)).toString('latin1');
    return { name, kind: KINDS.get(name) ?? Kind.Other };
  }
  let key = to - from;
  for (let k = from; k < to; k++) key = key * 256 + b[k]!;
  let operator = OPERATORS.get(key);
  if (operator === undefined) {
    const name = Buffer.from(b.buffer, b.byteOffset + from, to - from).toString('latin1');
    operator = { name, kind: KINDS.get(name) ?? Kind.Other };
    if (OPERATORS.size < 4096) OPERATORS.set(key, operator);
  }
  return operator;
}

/** Skips a dictionary operand `<< … >>` starting at `i` (BDC's properties, BI's), nested dictionaries and strings in
 * it included; returns the end. */
function skipDictionary(b: Uint8Array, i: number): number {
  let depth = 0;
  while (i < b.length) {
    if (b[i] === 0x3c && b[i + 1] === 0x3c) {
      depth++;
      i += 2;
    } else if (b[i] === 0x3e && b[i + 1] === 0x3e) {
      i += 2;
      if (--depth === 0) break;
    } else if (b[i] === 0x28) i = skipLiteral(b, i);
    else i++;
  }
  return i;
}

/** Called for each operation of a content stream with its operator, its kind and its bytes [start, end) (operands
 * and operator). */
type Visit = (op: string, kind: Kind, start: number, end: number) => void;

/**
 * Each operation of a content stream in order, spanning its operands and operator, given to `visit` as it is read
 * (no object per operation: a page has thousands). An inline image (BI … ID data EI) is one operation.
 */
function eachOperation(b: Uint8Array, visit: Visit): void {
  let start = -1;
  // A BI read and not yet given: the ID that follows makes the inline image one operation from it.
  let biStart = -1;
  let biEnd = -1;
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (CLASS[c] === 1) {
      i++;
      continue;
    }
    if (c === 0x25) {
      while (i < b.length && b[i] !== 0x0a && b[i] !== 0x0d) i++;
      continue;
    }
    const tokenStart = i;
    if (c === 0x28) i = skipLiteral(b, i);
    else if (c === 0x3c && b[i + 1] === 0x3c) i = skipDictionary(b, i);
    else if (c === 0x3c) {
      while (i < b.length && b[i] !== 0x3e) i++;
      i++;
    } else if (c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d) i++;
    else if (c === 0x2f) {
      i++;
      while (!ends(b[i])) i++;
    } else if (CLASS[c] === 3) {
      while (!ends(b[i])) i++; // a number
    } else {
      while (!ends(b[i])) i++;
      if (i === tokenStart) i++; // a stray delimiter (`)` or `>`): step over it
      const operator = operatorAt(b, tokenStart, i);
      const word = operator.name;
      if (word === 'true' || word === 'false' || word === 'null') {
        if (start < 0) start = tokenStart;
        continue;
      }
      if (word === 'ID') {
        const from = biStart >= 0 ? biStart : tokenStart;
        i = skipInlineImage(b, i);
        visit('BI', Kind.XObjectPaint, from, i);
        biStart = start = -1;
        continue;
      }
      if (biStart >= 0) {
        // A BI without its ID (never in Chromium's streams): an operation of its own.
        visit('BI', Kind.XObjectPaint, biStart, biEnd);
        biStart = -1;
      }
      if (word === 'BI') [biStart, biEnd] = [start < 0 ? tokenStart : start, i];
      else visit(word, operator.kind, start < 0 ? tokenStart : start, i);
      start = -1;
      continue;
    }
    if (start < 0) start = tokenStart;
  }
  if (biStart >= 0) visit('BI', Kind.XObjectPaint, biStart, biEnd);
}

/** The operations of a content stream, each spanning its operands and operator (the tests read them so). */
export function operations(b: Uint8Array): Operation[] {
  const ops: Operation[] = [];
  eachOperation(b, (op, kind, start, end) => ops.push({ op, kind, start, end }));
  return ops;
}

const OPEN = Buffer.from('/Artifact BMC\n', 'latin1');
const ARTIFACT = Buffer.from('/Artifact', 'latin1');
const MCID = Buffer.from('/MCID', 'latin1');

/** True when `b` has `word` at `at`, followed by a delimiter or white space. */
function startsWith(b: Uint8Array, at: number, word: Uint8Array): boolean {
  for (let k = 0; k < word.length; k++) if (b[at + k] !== word[k]) return false;
  return ends(b[at + word.length]);
}

/** The MCID of a BDC operation's property list (`/P <</MCID 3>> BDC`), or undefined. */
function mcidOf(b: Uint8Array, start: number, end: number): number | undefined {
  let i = start;
  for (; i + MCID.length <= end; i++) {
    if (b[i] === 0x2f && b[i + 1] === 0x4d && b[i + 2] === 0x43 && b[i + 3] === 0x49 && b[i + 4] === 0x44) break;
  }
  if (i + MCID.length > end) return undefined;
  i += MCID.length;
  while (isWhite(b[i])) i++;
  let n = 0;
  const from = i;
  for (; b[i]! >= 0x30 && b[i]! <= 0x39; i++) n = n * 10 + b[i]! - 0x30;
  return i > from ? n : undefined;
}
const CLOSE = Buffer.from('\nEMC', 'latin1');

/** What a stream's marking found: how many runs it wrapped and how many tagged sequences it turned into artifacts. */
export interface MarkCounts {
  wrapped: number;
  repeated: number;
}

/** Bytes [at, end) of a stream replaced by `bytes` (an insertion when at === end). */
interface Edit {
  at: number;
  end: number;
  bytes: Buffer;
}

/** `content` with `edits` made (they do not overlap). */
function applyEdits(content: Uint8Array, edits: Edit[]): Buffer {
  edits.sort((a, b) => a.at - b.at);
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const e of edits) {
    parts.push(content.subarray(at, e.at), e.bytes);
    at = e.end;
  }
  parts.push(content.subarray(at));
  return Buffer.concat(parts);
}

/** Whether a sequence that begins at `o` (BDC, BMC) tags what it holds (an MCID, or /Artifact); a top-level one whose
 * MCID is in `repeated` (a repeated table header) is retagged /Artifact. */
function beginMarked(
  content: Uint8Array,
  bdc: boolean,
  start: number,
  end: number,
  topLevel: boolean,
  repeated: ReadonlySet<number>,
  edits: Edit[],
  counts: MarkCounts | undefined,
): boolean {
  const mcid = bdc ? mcidOf(content, start, end) : undefined;
  if (mcid !== undefined && topLevel && repeated.has(mcid)) {
    edits.push({ at: start, end, bytes: Buffer.from('/Artifact BMC', 'latin1') });
    if (counts) counts.repeated++;
  }
  return mcid !== undefined || startsWith(content, start, ARTIFACT);
}

/**
 * `content` with every painting operation outside marked content wrapped in `/Artifact BMC … EMC`, and the tagged
 * sequences whose MCID is in `repeated` retagged `/Artifact`; undefined when there was nothing to change.
 */
export function markArtifacts(content: Uint8Array, repeated: ReadonlySet<number> = new Set(), counts?: MarkCounts): Buffer | undefined {
  // Insertions as [position, bytes] (opening before closing at one position never happens: runs do not touch).
  const edits: Edit[] = [];
  const wrap = (from: number, to: number) => {
    edits.push({ at: from, end: from, bytes: OPEN }, { at: to, end: to, bytes: CLOSE });
    if (counts) counts.wrapped++;
  };
  // `depth` counts the open sequences that tag (an MCID, or /Artifact); others (Chromium's /ReversedChars around
  // right-to-left text, a /Span without MCID) neither tag nor untag what they hold.
  let depth = 0;
  const open: boolean[] = [];
  let pathStart = -1;
  // The text object being read (BT … ET; start -1: none): the depth it opened at, whether marked content begins or
  // ends in it, and its text-showing operations' [start, end) pairs.
  const text = { start: -1, depth: 0, marked: false, shows: [] as number[] };
  eachOperation(content, (op, kind, start, end) => {
    switch (kind) {
      case Kind.BeginMarked: {
        const tags = beginMarked(content, op === 'BDC', start, end, depth === 0, repeated, edits, counts);
        open.push(tags);
        if (tags) depth++;
        text.marked = true;
        break;
      }
      case Kind.EndMarked:
        text.marked = true;
        if (open.pop()) depth--;
        break;
      case Kind.BeginText:
        [text.start, text.depth, text.marked, text.shows.length] = [start, depth, false, 0];
        break;
      case Kind.EndText:
        if (text.start >= 0) {
          if (!text.marked && text.depth === 0 && depth === 0) {
            if (text.shows.length > 0) wrap(text.start, end);
          } else for (let k = 0; k < text.shows.length; k += 2) wrap(text.shows[k]!, text.shows[k + 1]!);
        }
        text.start = -1;
        break;
      case Kind.PathBuild:
        if (pathStart < 0 && depth === 0) pathStart = start;
        break;
      case Kind.PathPaint:
        if (pathStart >= 0 && depth === 0) wrap(pathStart, end);
        pathStart = -1;
        break;
      case Kind.TextShow:
        if (depth === 0 && text.start >= 0) text.shows.push(start, end);
        else if (depth === 0) wrap(start, end);
        break;
      case Kind.XObjectPaint:
        if (depth === 0) wrap(start, end);
        break;
    }
  });
  if (edits.length === 0) return undefined;
  return applyEdits(content, edits);
}
