// The signal that a client has left: aborted when its connection closes before its answer is whole, so that its
// render is cancelled (in the queue or mid-print) and nothing is counted for nobody. Used by every operation that
// renders; knows nothing of documents.
import type { Response } from 'express';

export interface ClientWatch {
  signal: AbortSignal;
  /** Stops watching (the answer is whole, or failed). */
  release(): void;
}

export function watchClient(res: Response): ClientWatch {
  const gone = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) gone.abort();
  };
  res.on('close', onClose);
  // A client can leave before anything watches it (while its document is prepared in turns of the event loop): its
  // close has already been emitted, so the socket's state is asked too.
  if (res.destroyed || res.socket === null || res.socket.destroyed) onClose();
  return { signal: gone.signal, release: () => res.off('close', onClose) };
}
