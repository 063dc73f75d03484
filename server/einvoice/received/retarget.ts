// Which specification a received invoice is written to when it is converted (POST /ubl, /cii, /factur-x with an
// e-invoice body): its own, wherever the target syntax has it, so that an XRechnung stays an XRechnung and an invoice
// taken to the other syntax and back keeps its BT-24 and BT-23 as sent; another one only when the query names it.
//   - UBL and CII: the profile when it is made in that syntax; else (Peppol BIS in CII, a Factur-X profile in UBL) the
//     bare norm's rows with BT-24 kept as sent, so that the way back restores the profile.
//   - Factur-X: the profile's own Factur-X level when it has one (EN 16931, XRECHNUNG, BASIC …), else EN 16931: the
//     PDF's XMP declares the level the guideline names, so a BT-24 of no Factur-X level is not kept there.
//   - MINIMUM and BASIC WL carry no lines, which UBL requires: they are not written as UBL.
// Says whether the output's specification differs from the input's (its rules are then checked on the output).
import { errors } from '../../errors';
import type { EInvoice, Profile } from '../model';
import { PROFILES } from '../profiles';

export type Target = 'ubl' | 'cii' | 'factur-x';

const syntaxOf = (target: Target): 'ubl' | 'cii' => (target === 'ubl' ? 'ubl' : 'cii');

function asked(invoice: EInvoice, target: Target, profile: Profile): EInvoice {
  const row = PROFILES[profile];
  if (!row.syntaxes.includes(syntaxOf(target)) || (target === 'factur-x' && !row.facturX)) {
    const made = target === 'factur-x' ? 'as Factur-X' : `in ${target.toUpperCase()}`;
    throw errors.validation([{ field: 'profile', message: `the ${profile} profile is not made ${made}` }]);
  }
  return { ...invoice, profile, specification: undefined, businessProcess: invoice.businessProcess ?? row.businessProcess };
}

function kept(invoice: EInvoice, target: Target): EInvoice {
  const row = PROFILES[invoice.profile];
  if (target === 'factur-x') {
    return row.facturX ? { ...invoice, specification: undefined } : { ...invoice, profile: 'en16931', specification: undefined };
  }
  if (row.syntaxes.includes(target)) return invoice;
  return { ...invoice, profile: 'en16931', specification: invoice.specification ?? row.specification };
}

/** The invoice as it is written to `target` (the query's `profile` when given). */
export function retarget(invoice: EInvoice, target: Target, profile?: Profile): EInvoice {
  const out = profile ? asked(invoice, target, profile) : kept(invoice, target);
  if (target === 'ubl' && out.lines.length === 0) {
    // MINIMUM and BASIC WL carry none; an invoice line is 1..n in UBL (and in EN 16931).
    throw errors.validation([{ field: '(body)', message: 'the invoice has no lines, which UBL requires: convert it to CII or Factur-X' }]);
  }
  return out;
}
