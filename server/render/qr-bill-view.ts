// The Swiss QR-bill's payment part and receipt as the page prints them (Swiss Implementation Guidelines for the
// QR-bill 2.3, section 3): the headings in the bill's language, the account in groups of four, the reference in the
// groups its type takes, the addresses on their lines (the country before the post code only abroad), the amount with
// a space between thousands, and the QR code's drawing without a quiet zone (the 5 mm margin around it is one), in
// millimetres with the Swiss cross in its middle. Knows no page layout (templates/partials/qr-bill.hbs, base.css).
import type { SwissAddress, SwissBill } from '../payments/swiss-qr';
import { referenceType } from '../payments/swiss-qr';
import { compact } from '../payments/references';
import { qrDrawing } from '../payments/qr';
import type { QrBillLabels, QrBillLanguage } from './qr-bill-labels';

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
  code: {
    /** The dark modules in module units, `modules` across; the template scales them to 46 mm. */
    path: string;
    modules: number;
    alt: string;
  };
}

/** The code's side and the Swiss cross's parts, in millimetres (guidelines 2.3, 6.4: 46 mm; the cross 7 mm with its
 * white border, 6 mm black, the arms 1.17 mm thick and 3.89 mm across). */
export const QR_BILL_CODE_MM = 46;

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

export function qrBillView(bill: SwissBill, payload: string, language: QrBillLanguage, labels: QrBillLabels): QrBillView {
  const type = referenceType(bill);
  const reference = compact(bill.reference ?? '');
  const amount = qrBillAmount(bill.amount.toFixed(2));
  const { path, size } = qrDrawing(payload, 0);
  const name = bill.creditor.name?.trim() ?? '';
  return {
    lang: language,
    labels,
    account: groups(compact(bill.iban), 4),
    creditor: addressLines(bill.creditor),
    reference: type === 'QRR' ? groups(reference, 5, true) : type === 'SCOR' ? groups(reference, 4) : undefined,
    message: bill.message?.trim() || undefined,
    debtor: bill.debtor && addressLines(bill.debtor),
    currency: bill.currency,
    amount,
    code: {
      path,
      modules: size,
      alt: labels.code_alt.replace('{{currency}}', bill.currency).replace('{{amount}}', amount).replace('{{name}}', name),
    },
  };
}
