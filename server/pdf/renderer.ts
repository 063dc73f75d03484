// What the rest of the service knows of PDF printing: a renderer that takes a whole page or a document's parts and
// page options and returns PDF bytes, and the figures it reports. Types only; the pool (browser-pool.ts) is the one
// implementation, and tests may stand another in for what surrounds rendering.
import type { PrintDocument } from './print-page';

export type { PrintDocument } from './print-page';

export interface PdfOptions {
  format: 'letter' | 'a4';
  /** An element goes on the bottom edge of the last page (the Swiss QR-bill): see print-page.ts. */
  pageBottom?: boolean;
  /** Aborted when nobody waits for the PDF any more (the client went away): the render leaves the queue, or its
   * page is closed mid-print, and the call rejects with errors.clientClosed(). */
  signal?: AbortSignal;
}

export interface PdfRenderer {
  /** `content`: a whole page (written over what the page held), or a document's parts (swapped into a page that
   * keeps their frame). */
  render(content: string | PrintDocument, options: PdfOptions): Promise<Uint8Array>;
  isReady(): boolean;
  stats(): PoolStats;
  /** stats() with every idle page asked now whether its renderer answers, for /readyz (absent: stats() is as true). */
  liveStats?(): Promise<PoolStats>;
  close(): Promise<void>;
}

export interface PoolStats {
  active: number;
  queued: number;
  idlePages: number;
  renders: number;
  browserRestarts: number;
  blockedRequests: number;
  pagesReplaced: number;
  /** Frames written into resident pages: a page's first document, or one of another theme than its last. */
  framesWritten: number;
  /** Renderer processes killed for going over rendererMaxRssMiB. */
  renderersKilled: number;
  /** Pages whose renderer crashed, stopped or stopped answering, replaced. */
  pagesLost?: number;
}
