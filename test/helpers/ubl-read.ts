// Comparing a received UBL example with what the service writes from it (test/integration/einvoice/ubl/read.test.ts): the
// reader's entry as the service will call it, KoSIT's semantic model as compared (empty terms pruned, booleans
// spelled), a difference list that names a line's terms one by one, the model as CII takes it (forCii), and the terms
// that cannot cross from UBL to CII with the reason of each (CANNOT_CROSS).
import type { EInvoice } from '../../server/einvoice/model';
import { readUbl, ublProfile } from '../../server/einvoice/ubl/read';
import { U } from '../../server/einvoice/ubl/read-xml';
import { parseXml } from '../../server/einvoice/xml-tree';
import { retarget } from '../../server/einvoice/received/retarget';
import { comparedModel, differences } from './semantic';

/** A received UBL document read into the model, its profile from its CustomizationID. */
export function read(xml: string): EInvoice {
  const root = parseXml(xml);
  return readUbl(root, ublProfile(U.text(root, 'cbc:CustomizationID')));
}

/** KoSIT's model of `xml` as compared here (semantic.ts: empty terms pruned, indicators spelled). */
export const terms = comparedModel;

export { differences };

/** The model as the service writes it to CII (received/retarget.ts): Peppol BIS Billing 3.0 exists in UBL only, so its
 * CII is written with the bare norm's rows, its BT-24 and BT-23 kept as received, so that the way back restores them. */
export function forCii(e: EInvoice): EInvoice {
  return retarget(e, 'cii');
}

/** A difference between the UBL example and its CII that is not a loss: `missing` a term of the example that the
 * CII's model lacks, `extra` a term of the CII's model that the example's lacks. */
interface Crossing {
  why: string;
  missing?: (term: string, e: EInvoice) => boolean;
  extra?: (term: string, e: EInvoice) => boolean;
}

/** Every term that cannot cross from UBL to CII as it is, and why (the lead's list). */
export const CANNOT_CROSS: Crossing[] = [
  {
    why: 'BT-8: UBL codes the VAT point date event in UNTDID 2005 (3, 35, 432), CII in UNTDID 2475 (5, 29, 72): one meaning, two codes',
    missing: (t, e) => t === `BT-8=${e.taxPointDateCode}`,
    extra: (t, e) => t === `BT-8=${{ '3': '5', '35': '29', '432': '72' }[e.taxPointDateCode ?? '3']}`,
  },
  {
    why: "BT-31, BT-32, BT-48, BT-63: CII names a tax registration's scheme (VA, FC) in an attribute that KoSIT's model shows; UBL names it in cac:TaxScheme, which the model leaves out",
    extra: (t) => /^BG-(4|7|11) > BT-(31|32|48|63)=.* @scheme_identifier=(VA|FC)$/.test(t),
  },
  {
    why: "BT-18's scheme (BT-18-1): the CII carries it (ram:ReferenceTypeCode) but KoSIT's CII mapping reads a scheme only from @schemeID",
    missing: (t, e) => t === `BT-18=${e.invoicedObject?.id} @scheme_identifier=${e.invoicedObject?.scheme}`,
  },
  {
    why: "BG-24: KoSIT's UBL mapping also counts the invoiced object's reference (type 130, BT-18) as a supporting document; its CII mapping (type 916 only) does not",
    missing: (t, e) => t === `BG-24 > BT-122=${e.invoicedObject?.id}` || t === `BG-24=${e.invoicedObject?.id}`,
  },
  {
    why: 'BT-147 without BT-148: CII has a place for the price discount only inside the gross price; the CII writer gives the gross price it implies (net price plus discount), a term the UBL example leaves out',
    extra: (t, e) =>
      e.lines.some((l) => l.priceDiscount && !l.grossPrice && t === `BG-25 > BG-29 > BT-148=${l.price.add(l.priceDiscount).toString()}`),
  },
];

/** The differences of `list` that CANNOT_CROSS does not explain. */
export function unexplained(list: string[], side: 'missing' | 'extra', e: EInvoice): string[] {
  return list.filter((t) => !CANNOT_CROSS.some((c) => c[side]?.(t, e)));
}
