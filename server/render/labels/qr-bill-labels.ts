// The Swiss QR-bill's headings (locales/qr-bill.json): the four languages its guidelines give, each with exactly the
// keys it prints (checked at start-up, every problem listed with the catalogues'), and which of them the client's
// language preferences pick. Knows no layout.
import fs from 'node:fs';
import path from 'node:path';

export const QR_BILL_LANGUAGES = ['en', 'de', 'fr', 'it'] as const;
export type QrBillLanguage = (typeof QR_BILL_LANGUAGES)[number];

/** Every heading the payment part and receipt print: the file's languages have exactly these. */
export const QR_BILL_LABEL_KEYS = [
  'receipt',
  'payment_part',
  'account',
  'reference',
  'additional_information',
  'payable_by',
  'payable_by_name',
  'currency',
  'amount',
  'acceptance_point',
  'code_alt',
] as const;

export type QrBillLabelKey = (typeof QR_BILL_LABEL_KEYS)[number];

export type QrBillLabels = Readonly<Record<QrBillLabelKey, string>>;

/** Each language's regional tag, as negotiateLocale takes a table of languages. */
export const QR_BILL_TAGS: Readonly<Record<QrBillLanguage, string>> = { en: 'en-CH', de: 'de-CH', fr: 'fr-CH', it: 'it-CH' };

/** Reads and checks the file; the problems go to `problems` (the labels are then English keys, never used). */
export function loadQrBillLabels(dir: string, problems: string[]): (language: QrBillLanguage) => QrBillLabels {
  const file = path.join(dir, 'qr-bill.json');
  let table: Partial<Record<QrBillLanguage, Record<string, unknown>>> = {};
  try {
    table = (JSON.parse(fs.readFileSync(file, 'utf8')) as { languages?: typeof table }).languages ?? {};
  } catch (err) {
    problems.push(`qr-bill.json: ${(err as Error).message}`);
  }
  const keys: readonly string[] = QR_BILL_LABEL_KEYS;
  const labels = new Map<QrBillLanguage, QrBillLabels>();
  for (const language of QR_BILL_LANGUAGES) {
    const own = table[language];
    if (!own) {
      problems.push(`qr-bill.json: languages.${language} is missing`);
      continue;
    }
    const missing = keys.filter((k) => typeof own[k] !== 'string' || own[k] === '');
    const extra = Object.keys(own).filter((k) => !keys.includes(k));
    if (missing.length) problems.push(`qr-bill.json: languages.${language} lacks ${missing.join(', ')}`);
    if (extra.length) problems.push(`qr-bill.json: languages.${language} has key(s) the QR-bill does not print: ${extra.join(', ')}`);
    labels.set(language, Object.fromEntries(QR_BILL_LABEL_KEYS.map((k) => [k, typeof own[k] === 'string' ? own[k] : k])) as QrBillLabels);
  }
  // With problems, start-up stops: the keys themselves stand in meanwhile.
  const fallback = Object.fromEntries(QR_BILL_LABEL_KEYS.map((k) => [k, k])) as QrBillLabels;
  return (language) => labels.get(language) ?? fallback;
}
