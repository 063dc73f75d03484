// A received CII document (rsm:CrossIndustryInvoice, UN/CEFACT D16B: EN 16931, XRechnung and every Factur-X / ZUGFeRD
// profile) read into the EN 16931 model, so that it can be validated, shown and written again (as CII or UBL) with
// nothing lost. Where each business term lives is KoSIT's official reading (xrechnung-visualization, cii-xr.xsl) and
// the EN 16931 CII binding; this module reads the document context and header (BT-1 … BT-3, BT-23, BT-24, BG-1) and
// the references and supporting documents (BT-10 … BT-18, BG-24), and puts the parts together: parties
// (read-parties.ts), lines (read-lines.ts), settlement (read-settlement.ts). It is called on documents that passed
// their XSD, but never throws on a missing part: an optional term is left out, a required text is '', a required
// amount 0. MINIMUM and BASIC WL documents have no lines (`lines: []`). Decides nothing: no check, no rounding, no
// computation (amounts are the document's, as sent).
import type { EInvoice, Identifier, Profile, SupportingDocument } from '../model';
import { PROFILES, receivedProfile } from '../profiles';
import { readLineTree } from './read-lines';
import { readDelivery, readParty, readTaxRepresentative } from './read-parties';
import { readSettlement } from './read-settlement';
import { date, defined, X, type XmlNode } from './read-xml';

/** The profile a CII guideline identifier (BT-24) names: a CII row of PROFILES, else 'en16931'. */
export function ciiProfile(guidelineId: string | undefined): Profile {
  return receivedProfile(guidelineId, 'cii') ?? 'en16931';
}

/** BG-1: each ram:IncludedNote, its texts (BT-22, several joined by a line break) and subject code (BT-21). */
function readNotes(doc: XmlNode | undefined): EInvoice['notes'] {
  return X.all(doc, 'ram:IncludedNote').map((n) => {
    const text = X.all(n, 'ram:Content')
      .map((c) => X.text(c))
      .filter((t): t is string => t !== undefined)
      .join('\n');
    return defined({ subjectCode: X.text(n, 'ram:SubjectCode'), text });
  });
}

/** BG-24 (type 916): BT-122 … BT-125. */
function supportingDocument(ref: XmlNode): SupportingDocument {
  const attachment = X.one(ref, 'ram:AttachmentBinaryObject');
  const base64 = attachment?.text.trim(); // as sent: line breaks are valid base64 (xs:base64Binary)
  const content =
    attachment && base64
      ? { base64, mimeCode: attachment.attrs.mimeCode?.trim() ?? '', filename: attachment.attrs.filename?.trim() ?? '' }
      : undefined;
  return defined({
    id: X.text(ref, 'ram:IssuerAssignedID') ?? '', // BT-122
    description: X.text(ref, 'ram:Name'), // BT-123
    url: X.text(ref, 'ram:URIID'), // BT-124
    content, // BT-125 with its MIME code and file name
  });
}

/** The header references: BT-10 … BT-18 and BG-24 from the agreement, BT-15 and BT-16 from the delivery. */
function readReferences(agreement: XmlNode | undefined, delivery: XmlNode | undefined) {
  const additional = X.all(agreement, 'ram:AdditionalReferencedDocument');
  const typed = (code: string) => additional.filter((r) => X.text(r, 'ram:TypeCode') === code);
  const object = typed('130').find((r) => X.text(r, 'ram:IssuerAssignedID') !== undefined);
  const invoicedObject: Identifier | undefined =
    object && defined({ id: X.text(object, 'ram:IssuerAssignedID')!, scheme: X.text(object, 'ram:ReferenceTypeCode') });
  return {
    buyerReference: X.text(agreement, 'ram:BuyerReference'), // BT-10
    projectReference: X.text(agreement, 'ram:SpecifiedProcuringProject/ram:ID'), // BT-11
    contractReference: X.text(agreement, 'ram:ContractReferencedDocument/ram:IssuerAssignedID'), // BT-12
    orderReference: X.text(agreement, 'ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID'), // BT-13
    salesOrderReference: X.text(agreement, 'ram:SellerOrderReferencedDocument/ram:IssuerAssignedID'), // BT-14
    receivingAdvice: X.text(delivery, 'ram:ReceivingAdviceReferencedDocument/ram:IssuerAssignedID'), // BT-15
    despatchAdvice: X.text(delivery, 'ram:DespatchAdviceReferencedDocument/ram:IssuerAssignedID'), // BT-16
    tenderReference: typed('50')
      .map((r) => X.text(r, 'ram:IssuerAssignedID'))
      .find((t) => t !== undefined), // BT-17
    invoicedObject, // BT-18 with its scheme (BT-18-1)
    documents: typed('916').map(supportingDocument), // BG-24
  };
}

/** `root`: the rsm:CrossIndustryInvoice element; `profile`: the one its guideline identifier names (ciiProfile). */
export function readCii(root: XmlNode, profile: Profile): EInvoice {
  const context = X.one(root, 'rsm:ExchangedDocumentContext');
  const doc = X.one(root, 'rsm:ExchangedDocument');
  const tx = X.one(root, 'rsm:SupplyChainTradeTransaction');
  const agreement = X.one(tx, 'ram:ApplicableHeaderTradeAgreement');
  const delivery = X.one(tx, 'ram:ApplicableHeaderTradeDelivery');
  const guideline = X.text(context, 'ram:GuidelineSpecifiedDocumentContextParameter/ram:ID'); // BT-24
  return defined({
    profile,
    specification: guideline !== undefined && guideline !== PROFILES[profile].specification ? guideline : undefined,
    businessProcess: X.text(context, 'ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID'), // BT-23
    number: X.text(doc, 'ram:ID') ?? '', // BT-1
    issueDate: date(doc, 'ram:IssueDateTime') ?? '', // BT-2
    typeCode: X.text(doc, 'ram:TypeCode') ?? '', // BT-3
    notes: readNotes(doc), // BG-1
    ...readReferences(agreement, delivery),
    seller: readParty(X.one(agreement, 'ram:SellerTradeParty'), true), // BG-4
    buyer: readParty(X.one(agreement, 'ram:BuyerTradeParty'), false), // BG-7
    taxRepresentative: readTaxRepresentative(agreement), // BG-11
    delivery: readDelivery(delivery), // BG-13
    ...readSettlement(X.one(tx, 'ram:ApplicableHeaderTradeSettlement')),
    // BG-25; in a profile with sub-lines (EXTENDED, EXTENDED-CTC-FR) each under its line, elsewhere every item a line
    // (EN 16931's sums count every item there).
    lines: readLineTree(X.all(tx, 'ram:IncludedSupplyChainTradeLineItem'), PROFILES[profile].subLines === true),
    minorUnits: 2,
  });
}
