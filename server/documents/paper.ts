// The paper a document prints on and its page margins, written once: the print asks Chromium for them
// (pdf/print-page.ts), the document's own style writes them as its @page margins (templates/document-style.hbs, from
// render/html.ts) and as the custom properties the Swiss QR-bill's margin-less page lays its flow out with
// (themes/base.css), the letterhead footer's room starts from the bottom one (render/view/marks.ts), and the studio
// previews at them (http/studio.ts). Plain data.
import type { DocumentRequest } from './model';

export type PageSize = NonNullable<DocumentRequest['page_size']>;

/** Paper sizes in inches (A4 exactly 210 × 297 mm, where puppeteer's table rounds it to 8.27 × 11.7 in). */
export const PAPER: Readonly<Record<PageSize, { width: number; height: number }>> = {
  letter: { width: 8.5, height: 11 },
  a4: { width: 210 / 25.4, height: 297 / 25.4 },
};

/** The page margins in inches: room above for nothing but air, below for the page counter (and a footer's lines). */
export const PAGE_MARGIN_IN = { top: 0.55, right: 0.6, bottom: 0.75, left: 0.6 } as const;
