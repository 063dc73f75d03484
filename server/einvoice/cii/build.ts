// The CII syntax of the EN 16931 model: a UN/CEFACT Cross Industry Invoice D16B (rsm:CrossIndustryInvoice), for /cii
// and for the XML inside a Factur-X PDF, in every profile of PROFILES that is made in CII (MINIMUM … EXTENDED,
// XRechnung). This module writes the document context (BT-23, BT-24) and header (BT-1 … BT-3, BG-1) and puts the
// parts together: lines (lines.ts), agreement and delivery (agreement.ts), settlement (settlement.ts). Element order
// follows the D16B XSD sequences, which the Factur-X XSDs keep; no empty element is written except
// ram:ApplicableHeaderTradeDelivery, which the XSD requires. What a profile leaves out is its row's (profiles.ts:
// `lines`, `keyFigures`); what a profile cannot carry was refused before (profileProblems). Knows no request and
// computes nothing: every value comes from the model (map.ts fills it). Must not validate (xsd-validator.ts does)
// nor write the PDF attachment (Factur-X carries the XML in the PDF, not the PDF in the XML).
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { Decimal } from '../../money/totals';
import type { EInvoice } from '../model';
import { PROFILES, type ProfileRow } from '../profiles';
import { xmlText } from '../xml-text';
import { agreement, delivery } from './agreement';
import { any, date, money, NS, ram, text } from './cii-xml';
import { addLine } from './lines';
import { settlement } from './settlement';

function row(invoice: EInvoice): ProfileRow {
  const r = PROFILES[invoice.profile];
  // Peppol BIS Billing 3.0 exists in UBL only; the mapping never asks for it in CII.
  if (!r.syntaxes.includes('cii')) throw new Error(`the ${invoice.profile} profile is UBL only: there is no CII document of it`);
  return r;
}

export function buildCii(invoice: EInvoice): string {
  return xmlText(ciiTree(invoice));
}

/** The CII document as a tree, before it is written as text (outputs.ts writes it at a turn of its own). */
export function ciiTree(invoice: EInvoice): XMLBuilder {
  const profile = row(invoice);
  const amount = (value: Decimal): string => money(value, invoice.minorUnits);

  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS.rsm, 'rsm:CrossIndustryInvoice', {
    'xmlns:qdt': NS.qdt,
    'xmlns:ram': NS.ram,
    'xmlns:udt': NS.udt,
  });
  const context = root.ele(NS.rsm, 'rsm:ExchangedDocumentContext');
  if (any(invoice.businessProcess)) text(ram(context, 'BusinessProcessSpecifiedDocumentContextParameter'), 'ID', invoice.businessProcess); // BT-23
  text(ram(context, 'GuidelineSpecifiedDocumentContextParameter'), 'ID', invoice.specification ?? profile.specification); // BT-24

  const doc = root.ele(NS.rsm, 'rsm:ExchangedDocument');
  text(doc, 'ID', invoice.number); // BT-1
  text(doc, 'TypeCode', invoice.typeCode); // BT-3
  date(doc, 'IssueDateTime', invoice.issueDate); // BT-2
  for (const note of invoice.notes) {
    if (!any(note.text)) continue;
    const el = ram(doc, 'IncludedNote'); // BG-1
    text(el, 'Content', note.text); // BT-22
    text(el, 'SubjectCode', note.subjectCode); // BT-21
  }

  const transaction = root.ele(NS.rsm, 'rsm:SupplyChainTradeTransaction');
  if (profile.lines) for (const line of invoice.lines) addLine(transaction, line, amount, profile.subLines);
  agreement(transaction, invoice, profile.keyFigures);
  delivery(transaction, invoice);
  settlement(transaction, invoice, amount, profile.keyFigures);
  return root;
}
