// Flate (zlib) in one call, for the PDF steps that inflate and deflate every page's content: node:zlib's own one-shot
// calls, with one thing more. Each call makes a zlib engine that writes into an output buffer of its own (16-32 KiB)
// and returns a view of it. The engine outlived V8's young-generation collections (measured; the native handle behind
// it is the likely reason), so that buffer was only freed by a full collection. Under load that was about 50 KB per document held outside the
// heap, and V8 started a full collection for "external memory pressure" every 700 documents or so, whatever the heap
// growth setting (measured: the service's array buffers climbing 7 → 63 MB between them). Here the engine lets go of
// its buffer when the call returns: the result alone holds it, and it goes when the result does.
// Knows nothing of PDFs.
import zlib from 'node:zlib';

/** What a one-shot call returns with `info: true` (node:zlib's documented option): the result and its engine. */
interface WithEngine {
  buffer: Buffer;
  engine: object;
}

const withEngine = (value: unknown): value is WithEngine =>
  typeof value === 'object' && value !== null && 'engine' in value && Buffer.isBuffer((value as { buffer?: unknown }).buffer);

/** The result, its engine's hold on the output buffer dropped (`_outBuffer`: node:zlib's own field). */
function released(value: unknown): Buffer {
  if (!withEngine(value)) throw new TypeError('node:zlib returned no engine with info: true');
  Reflect.set(value.engine, '_outBuffer', undefined);
  return value.buffer;
}

/** `data` inflated; `chunkSize` the output buffer's size (one that holds the whole result is fastest). */
export function inflate(data: Uint8Array, chunkSize: number): Buffer {
  return released(zlib.inflateSync(data, { chunkSize, info: true }));
}

/** `data` deflated at `level`. */
export function deflate(data: Uint8Array, level: number): Buffer {
  return released(zlib.deflateSync(data, { level, info: true }));
}
