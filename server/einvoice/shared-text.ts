// A long text handed to worker threads without copying it on the way: a string is serialized anew by every
// postMessage (90 ms of the event loop for the 12 MB of a 10,000-line invoice, once for the XSD and once per rule set),
// while a view of a SharedArrayBuffer costs nothing to send. The text is encoded once, as UTF-8; each worker reads
// what it needs. Knows nothing of what the text is.

/** `text` as UTF-8 in shared memory. */
export function shareText(text: string): Uint8Array {
  const sab = new SharedArrayBuffer(Buffer.byteLength(text, 'utf8'));
  Buffer.from(sab).write(text, 'utf8');
  return new Uint8Array(sab);
}

/** The bytes of a text as sent (a string as UTF-8, shared bytes as they are, not copied). */
export function bytesOf(text: string | Uint8Array): Buffer {
  return typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
}

/** The text as a string (shared bytes decoded). */
export function textOf(text: string | Uint8Array): string {
  return typeof text === 'string' ? text : bytesOf(text).toString('utf8');
}
