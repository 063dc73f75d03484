// The one line that says under which rules a received e-invoice was checked and whether it passed: "Checked against
// EN 16931 1.3.16 and Peppol BIS Billing 3.0.19: valid" / "…: 2 rules broken (BR-CO-16, BR-06)", in the reader's
// language. The check itself is the caller's (the validators); this module only words its result. At most
// BROKEN_NAMED rules are named, then how many more.
import type { ReceivedContext } from './context';

/** The result of checking a received invoice, as the validators report it. */
export interface ReceivedCheck {
  /** The specification the invoice claims (BT-24), e.g. urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:…; null
   * when it names none (the validators' report has it so). */
  specification: string | null;
  /** The rule sets it was checked against, e.g. { name: 'EN 16931', version: '1.3.16' }. */
  ruleSets: { name: string; version: string }[];
  valid: boolean;
  /** The identifiers of the rules broken (BR-CO-16, PEPPOL-EN16931-R003 …). */
  broken: string[];
}

export interface CheckLine {
  text: string;
  valid: boolean;
}

export const BROKEN_NAMED = 10;

/** The list in the language ("A, B and C", "A, B und C"); the items as they are when Intl cannot. */
function list(items: string[], tag: string): string {
  try {
    return new Intl.ListFormat(tag, { type: 'conjunction' }).format(items);
  } catch {
    return items.join(', ');
  }
}

export function checkLine(check: ReceivedCheck, { text, locale }: Pick<ReceivedContext, 'text' | 'locale'>): CheckLine {
  const sets = check.ruleSets.map((r) => [r.name, r.version].filter(Boolean).join(' '));
  const rules = list(sets.length > 0 ? sets : [check.specification ?? '—'], locale.tag);
  // A valid result names no broken rule, even when some were reported (warnings are the validators' business).
  const valid = check.valid;
  if (valid) return { text: text('check', { rules, result: text('valid') }), valid };
  const count = check.broken.length;
  if (count === 0) return { text: text('check', { rules, result: text('invalid') }), valid };
  const named = check.broken.slice(0, BROKEN_NAMED);
  if (count > named.length) named.push(text('more', { count: String(count - named.length) }));
  const plural = new Intl.PluralRules(locale.tag).select(count) === 'one' ? 'broken_one' : 'broken_other';
  const result = text(plural, { count: String(count), rules: named.join(', ') });
  return { text: text('check', { rules, result }), valid };
}
