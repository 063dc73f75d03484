// A ZIP archive written as a stream (yazl): each file is handed over as soon as it is made and its bytes leave
// before the next is taken, so a batch never holds more than the file in hand plus the stream buffers, whatever its
// size. Knows nothing of HTTP: the caller pipes `output` where it wants.
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';

/** Slices a file is fed in: the pipe then waits for room downstream, so a file's 'end' means it is on its way out. */
const SLICE = 64 * 1024;

function* slices(data: Uint8Array): Generator<Buffer> {
  for (let at = 0; at < data.byteLength; at += SLICE) {
    yield Buffer.from(data.buffer, data.byteOffset + at, Math.min(SLICE, data.byteLength - at));
  }
}

export class ZipStream {
  private readonly zip = new ZipFile();
  readonly output: Readable = Readable.from(this.zip.outputStream, { objectMode: false });

  /**
   * Adds one file and resolves when its bytes have been taken by the stream (the reader keeps up, or it waits).
   * `compress`: PDFs are compressed already (deflating them again costs CPU for a few percent); XML is not.
   */
  async add(name: string, data: Uint8Array, compress: boolean, signal: AbortSignal): Promise<void> {
    const input = Readable.from(slices(data), { objectMode: false, highWaterMark: SLICE });
    const taken = once(input, 'end', { signal });
    this.zip.addReadStream(input, name, { compress, size: data.byteLength, mtime: new Date() });
    await taken;
  }

  /** Writes the central directory; `output` ends after it. */
  end(): void {
    this.zip.end();
  }
}
