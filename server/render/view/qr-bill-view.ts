// The Swiss QR-bill's payment part and receipt as the page prints them (Swiss Implementation Guidelines for the
// QR-bill 2.3, section 3): the headings in the bill's language, the account in groups of four, the reference in the
// groups its type takes, the addresses on their lines (the country before the post code only abroad), the amount with
// a space between thousands, and the QR code's drawing without a quiet zone (the 5 mm margin around it is one), in
// millimetres with the Swiss cross in its middle. Knows no page layout (templates/partials/qr-bill.hbs, base.css).
import type { SwissAddress, SwissBill } from '../../payments/swiss-qr';
import { referenceType } from '../../payments/swiss-qr';
import { compact } from '../../payments/references';
import { qrDrawing } from '../../payments/qr';
import type { QrBillLabels, QrBillLanguage } from '../labels/qr-bill-labels';

export interface QrBillView {
  lang: QrBillLanguage;
  labels: QrBillLabels;
  account: string;
  creditor: string[];
  reference?: string;
  message?: string;
  /** Absent: the debtor's box is left blank, to be filled in by hand. */
  debtor?: string[];
  currency: string;
  amount: string;
  /** Long data: the receipt and the payment part set in the guidelines' smallest sizes (values 8 pt, headings 6 pt),
   * so that their sections hold it; each flag for its part. */
  compact: { receipt: boolean; payment: boolean };
  code: {
    /** The dark modules in module units, `modules` across; the template scales them to 46 mm. */
    path: string;
    modules: number;
    alt: string;
  };
}

const groups = (text: string, size: number, fromRight = false): string => {
  const out: string[] = [];
  if (fromRight) for (let end = text.length; end > 0; end -= size) out.unshift(text.slice(Math.max(0, end - size), end));
  else for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out.join(' ');
};

/** "1949.75" → "1 949.75". */
export function qrBillAmount(fixed: string): string {
  const [whole, cents] = fixed.split('.');
  return `${groups(whole!, 3, true)}.${cents}`;
}

function addressLines(a: SwissAddress): string[] {
  const town = `${a.country && a.country !== 'CH' ? `${a.country}-` : ''}${a.postal_code?.trim() ?? ''} ${a.city?.trim() ?? ''}`;
  return [a.name?.trim() ?? '', a.street?.trim() ?? '', town.trim()].filter((lineText) => lineText !== '');
}

/** The height in points that groups of a heading and value lines take at `size` pt values in a box `width` mm wide
 * (lines `lead` pt apart, groups one `gap` apart), reckoning 0.6 em a character: wide for Latin text, so that a box
 * that holds the estimate holds the text. */
function groupsHeight(groups: string[][], width: number, size: number, lead: number, gap: number): number {
  const perLine = Math.max(1, Math.floor(width / ((0.6 * size * 25.4) / 72)));
  const lines = groups.reduce(
    (sum, values) => sum + 1 + values.reduce((n, v) => n + Math.max(1, Math.ceil([...v].length / perLine)), 0),
    0,
  );
  return lines * lead + (groups.length - 1) * gap;
}

const MM = 72 / 25.4;

export function qrBillView(bill: SwissBill, payload: string, language: QrBillLanguage, labels: QrBillLabels): QrBillView {
  const type = referenceType(bill);
  const reference = compact(bill.reference ?? '');
  const amount = qrBillAmount(bill.amount.toFixed(2));
  const { path, size } = qrDrawing(payload, 0);
  const name = bill.creditor.name?.trim() ?? '';
  const account = groups(compact(bill.iban), 4);
  const creditor = addressLines(bill.creditor);
  const printedReference = type === 'QRR' ? groups(reference, 5, true) : type === 'SCOR' ? groups(reference, 4) : undefined;
  const message = bill.message?.trim() || undefined;
  const debtor = bill.debtor && addressLines(bill.debtor);
  const blank = ['', '', '']; // the blank box is 20 to 25 mm high: three lines and more
  const receiptGroups = [[account, ...creditor], ...(printedReference ? [[printedReference]] : []), debtor ?? blank];
  const paymentGroups = [
    [account, ...creditor],
    ...(printedReference ? [[printedReference]] : []),
    ...(message ? [[message]] : []),
    debtor ?? blank,
  ];
  return {
    lang: language,
    labels,
    account,
    creditor,
    reference: printedReference,
    message,
    debtor,
    currency: bill.currency,
    amount,
    compact: {
      receipt: groupsHeight(receiptGroups, 52, 8, 9, 9) > 56 * MM,
      payment: groupsHeight(paymentGroups, 87, 10, 11, 11) > 85 * MM,
    },
    code: {
      path,
      modules: size,
      alt: labels.code_alt.replace('{{currency}}', bill.currency).replace('{{amount}}', amount).replace('{{name}}', name),
    },
  };
}
