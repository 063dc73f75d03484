// Every date an e-invoice carries, read once from the request in its locale (documents/dates.ts): the issue and due
// dates (BT-2, BT-9), the date of supply (BT-72), the VAT point date (BT-7), the invoicing period (BG-14), the
// preceding invoices' dates (BT-26) and the lines' periods (BG-26). Every date that cannot be read, and every period
// that ends before it starts (BR-29, BR-30), is one problem naming its field. Knows no syntax.
import { parseDocumentDate, todayIso } from '../documents/dates';
import type { DocumentRequest } from '../documents/model';
import type { FieldProblem } from '../errors';
import type { Period } from './model';

export interface InvoiceDates {
  issue: string;
  due?: string;
  delivery?: string;
  taxPoint?: string;
  period?: Period;
  /** BT-26 of each preceding invoice, by its index. */
  preceding: (string | undefined)[];
  /** BG-26 of each line, by its index. */
  lines: (Period | undefined)[];
}

type PeriodIn = { start?: string; end?: string } | undefined;

export function readDates(doc: DocumentRequest, localeTag: string, timeZone: string, problems: FieldProblem[], now?: Date): InvoiceDates {
  const read = (value: string | undefined, field: string): string | undefined => {
    if (value === undefined) return undefined;
    const iso = parseDocumentDate(value, localeTag);
    if (!iso) {
      problems.push({
        field,
        message: `${field} must be a date such as 2015-02-09 or Feb 9, 2015 (numeric dates are read ${localeTag === 'en-US' ? 'month first' : 'day first'} for ${localeTag})`,
      });
    }
    return iso;
  };
  const period = (value: PeriodIn, field: string): Period | undefined => {
    if (!value) return undefined;
    const start = read(value.start, `${field}.start`);
    const end = read(value.end, `${field}.end`);
    if (start && end && end < start) problems.push({ field: `${field}.end`, message: `${field}.end must not be before ${field}.start` });
    return start || end ? { start, end } : undefined;
  };
  return {
    issue: read(doc.date, 'date') ?? todayIso(timeZone, now),
    due: read(doc.due_date, 'due_date'),
    delivery: read(doc.delivery_date, 'delivery_date'),
    taxPoint: read(doc.tax_point_date, 'tax_point_date'),
    period: period(doc.invoice_period, 'invoice_period'),
    preceding: (doc.preceding_invoices ?? []).map((p, i) => read(p.date, `preceding_invoices[${i}].date`)),
    lines: doc.items.map((item, i) => period(item.period, `items[${i}].period`)),
  };
}
