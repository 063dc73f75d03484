// The failures in an SVRL report (ISO Schematron's output): every svrl:failed-assert and svrl:successful-report with
// its id, flag, location and text, read with a real XML parser (the texts carry entities and markup such as
// `&lt;` and `<svrl:diagnostic-reference>`). Knows no rule set.
import { SaxesParser, type SaxesTagNS } from 'saxes';

const SVRL = 'http://purl.oclc.org/dsdl/svrl';

export interface SvrlFailure {
  /** The assertion's id (`BR-CO-16`, `PEPPOL-EN16931-R001`, `FX-SCH-A-000122`); '' when it has none. */
  id: string;
  /** `fatal`, `warning`, `information` as the rule set flags it; `fatal` when it has no flag (ISO Schematron's
   * default: a failed assertion is an error). A `role` stands in for a missing flag. */
  flag: string;
  /** The XPath of the node the rule fired on. */
  location: string;
  /** The assertion's text, whitespace collapsed. */
  text: string;
}

/** Every failure of `svrl`, in document order. */
export function svrlFailures(svrl: string): SvrlFailure[] {
  const out: SvrlFailure[] = [];
  const parser = new SaxesParser({ xmlns: true });
  let current: SvrlFailure | undefined;
  /** Depth below the current failure's element (1: its children). */
  let depth = 0;
  /** The depth of the svrl:text being read (its first direct child of that name); 0 when none is. */
  let textDepth = 0;
  let seenText = false;
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (current) {
      depth++;
      if (depth === 1 && tag.uri === SVRL && tag.local === 'text' && !seenText) {
        textDepth = 1;
        seenText = true;
      }
      return;
    }
    if (tag.uri === SVRL && (tag.local === 'failed-assert' || tag.local === 'successful-report')) {
      const attr = (name: string) => tag.attributes[name]?.value;
      const role = attr('role')?.toLowerCase();
      const flag = attr('flag') ?? (role && ['fatal', 'error', 'warning', 'information', 'info'].includes(role) ? role : undefined);
      current = { id: attr('id') ?? '', flag: normalFlag(flag), location: attr('location') ?? '', text: '' };
      depth = 0;
      seenText = false;
    }
  });
  const addText = (t: string): void => {
    if (current && textDepth) current.text += t;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    if (!current) return;
    if (depth === 0) {
      current.text = current.text.replace(/\s+/g, ' ').trim();
      out.push(current);
      current = undefined;
      return;
    }
    if (depth === textDepth) textDepth = 0;
    depth--;
  });
  parser.on('error', (err) => {
    throw err;
  });
  parser.write(svrl).close();
  return out;
}

function normalFlag(flag: string | undefined): string {
  const f = flag?.trim().toLowerCase();
  if (!f || f === 'error') return 'fatal';
  if (f === 'info') return 'information';
  return f;
}
