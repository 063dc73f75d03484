// The lifecycle status message of France's e-invoicing reform (XP Z12-012 v1.4, the "CDV"): a UN/CEFACT Cross Domain
// Acknowledgement and Response D22B (rsm:CrossDomainAcknowledgementAndResponse) saying, in the processing phase
// (MDT-77 = 23), that a received invoice was taken in charge, approved, refused, disputed or collected. Owns the status
// codes and the reason codes allowed per status (as data, for the HTTP layer too) and the element order of the
// uncoupled CDAR XSD; refuses an input that the FNFE-MPE rules (BR-FR-CDV) would reject, naming it. Knows no request
// and sends nothing; must not validate (XSD and rules are the caller's, or the tests').
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { NS, ram, text } from '../cii/cii-xml';
import { xmlText } from '../xml-text';

export type LifecycleStatus = 'received' | 'approved' | 'refused' | 'disputed' | 'paid';

export interface StatusParty {
  name: string;
  siren?: string;
  endpoint?: { scheme: string; id: string };
}

export interface StatusInput {
  status: LifecycleStatus;
  /** The id of this status message (MDT-4) and when it is issued (MDG-4). */
  id: string;
  issuedAt: Date;
  /** The invoice the status is about, as read from the received invoice. */
  invoice: {
    number: string;
    /** ISO YYYY-MM-DD. */
    issueDate: string;
    /** UNTDID 1001, e.g. 380. */
    typeCode: string;
    seller: StatusParty;
    buyer: StatusParty;
    currency: string;
  };
  /** refused / disputed: the reason code of the reform's list for that status (MDT-113), and an optional free text. */
  reason?: { code: string; text?: string };
  /** paid ("Encaissée", 212): the amount collected, as a decimal string with 2 decimals, and its VAT rate in percent if the rules ask for it. */
  amount?: { value: string; vatRate?: string };
}

/** The status codes (MDT-105) and the reason codes allowed per status, as data (exported so the HTTP layer can validate a request and list them). */
export const STATUS_CODES: Record<LifecycleStatus, string> = {
  received: '204',
  approved: '205',
  refused: '210',
  disputed: '207',
  paid: '212',
};

/** The reason codes (MDT-113) of BR-FR-CDV-CL-09 for each status that takes one; BR-FR-CDV-15 makes the reason required
 * for these two. Refused is the list for a company buyer (the rule's B2G list applies only when the sender is the
 * public portal's 9999). */
export const REASON_CODES: Partial<Record<LifecycleStatus, readonly string[]>> = {
  refused: [
    'TX_TVA_ERR',
    'MONTANTTOTAL_ERR',
    'CALCUL_ERR',
    'NON_CONFORME',
    'DOUBLON',
    'DEST_ERR',
    'TRANSAC_INC',
    'EMMET_INC',
    'CONTRAT_TERM',
    'DOUBLE_FACT',
    'CMD_ERR',
    'ADR_ERR',
    'REF_CT_ABSENT',
  ],
  disputed: [
    'AUTRE',
    'COORD_BANC_ERR',
    'TX_TVA_ERR',
    'MONTANTTOTAL_ERR',
    'CALCUL_ERR',
    'NON_CONFORME',
    'DOUBLON',
    'DEST_INC',
    'DEST_ERR',
    'TRANSAC_INC',
    'EMMET_INC',
    'CONTRAT_TERM',
    'DOUBLE_FACT',
    'CMD_ERR',
    'ADR_ERR',
    'SIRET_ERR',
    'CODE_ROUTAGE_ERR',
    'REF_CT_ABSENT',
    'REF_ERR',
    'PU_ERR',
    'REM_ERR',
    'QTE_ERR',
    'ART_ERR',
    'MODPAI_ERR',
    'QUALITE_ERR',
    'LIVR_INCOMP',
  ],
};

/** The status's label (MDT-106), as the reform names it. */
const LABELS: Record<LifecycleStatus, string> = {
  received: 'Prise en charge',
  approved: 'Approuvée',
  refused: 'Refusée',
  disputed: 'En litige',
  paid: 'Encaissée',
};

const RSM = 'urn:un:unece:uncefact:data:standard:CrossDomainAcknowledgementAndResponse:100';
/** Processing phase (MDT-77): the statuses a buyer or seller gives, not the platforms' transmission statuses (305). */
const PROCESSING = '23';
const REGULATED = 'REGULATED'; // MDT-2, BR-FR-CDV-CL-01
const GUIDELINE = 'urn.cpro.gouv.fr:1p0:CDV:invoice'; // MDT-3, BR-FR-CDV-02
const SIREN_SCHEME = '0002';
const SIREN = /^\d{9}$/;
const AMOUNT = /^-?\d{1,17}\.\d{2}$/;
const PERCENT = /^\d{1,3}(\.\d{1,2})?$/;

/** The status message as XML text (UTF-8, with its declaration). Throws an Error naming the input when one is missing
 * or not what the rules allow (the HTTP layer checks before calling; this is the last guard). */
export function writeCdar(input: StatusInput): string {
  return xmlText(cdarTree(input));
}

function cdarTree(input: StatusInput): XMLBuilder {
  check(input);
  const { invoice, status } = input;
  // The buyer gives every status but "Encaissée", which the seller gives (it is the seller who collects).
  const bySeller = status === 'paid';
  const issuer = bySeller ? invoice.seller : invoice.buyer;
  const recipient = bySeller ? invoice.buyer : invoice.seller;

  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(RSM, 'rsm:CrossDomainAcknowledgementAndResponse', {
    'xmlns:qdt': NS.qdt,
    'xmlns:ram': NS.ram,
    'xmlns:udt': NS.udt,
  });
  const context = root.ele(RSM, 'rsm:ExchangedDocumentContext');
  text(ram(context, 'BusinessProcessSpecifiedDocumentContextParameter'), 'ID', REGULATED);
  text(ram(context, 'GuidelineSpecifiedDocumentContextParameter'), 'ID', GUIDELINE);

  const doc = root.ele(RSM, 'rsm:ExchangedDocument');
  text(doc, 'ID', input.id); // MDT-4
  dateTime(doc, 'IssueDateTime', input.issuedAt); // MDG-4
  // The party giving the status both sends (MDG-9) and issues it (MDG-10: its SIREN is required in the processing
  // phase, BR-FR-CDV-07); a platform that relays the message may put itself as the sender (WK). The sender is named
  // by its name and address, without its SIREN: rule BR-FR-CDV-CL-09_MDT-113_210B2G rejects every refusal whose
  // sender has a GlobalID of another scheme than 0238 (a platform's number), whatever the reason code.
  party(doc, 'SenderTradeParty', issuer, bySeller ? 'SE' : 'BY', { siren: false, address: true });
  party(doc, 'IssuerTradeParty', issuer, bySeller ? 'SE' : 'BY');
  party(doc, 'RecipientTradeParty', recipient, bySeller ? 'BY' : 'SE', { address: true }); // address required: BR-FR-CDV-08

  const ack = root.ele(RSM, 'rsm:AcknowledgementDocument');
  ram(ack, 'MultipleReferencesIndicator').ele(NS.udt, 'udt:Indicator').txt('false'); // MDT-74: one invoice
  text(ack, 'TypeCode', PROCESSING); // MDT-77
  dateTime(ack, 'IssueDateTime', input.issuedAt);

  const ref = ram(ack, 'ReferenceReferencedDocument');
  text(ref, 'IssuerAssignedID', invoice.number); // MDT-87
  // MDT-88 (StatusCode, UNTDID 1373) is left out: optional (BR-FR-CDV-CL-05 checks it only when present).
  text(ref, 'TypeCode', invoice.typeCode); // MDT-91
  ram(ref, 'FormattedIssueDateTime').ele(NS.qdt, 'qdt:DateTimeString', { format: '102' }).txt(invoice.issueDate.replace(/-/g, '')); // MDG-35
  text(ref, 'ProcessConditionCode', STATUS_CODES[status]); // MDT-105
  text(ref, 'ProcessCondition', LABELS[status]); // MDT-106
  party(ref, 'IssuerTradeParty', invoice.seller, 'SE'); // MDT-129 (BR-FR-CDV-13), MDT-132 = SE (BR-FR-CDV-CL-07)

  if (input.reason || input.amount) {
    const detail = ram(ref, 'SpecifiedDocumentStatus'); // MDG-37
    if (input.reason) {
      text(detail, 'ReasonCode', input.reason.code); // MDT-113
      text(detail, 'Reason', input.reason.text);
    }
    text(detail, 'SequenceNumeric', '1'); // MDT-124-2, required in every MDG-37 (BR-FR-CDV-16)
    if (input.amount) {
      // BR-FR-CDV-14: a "MEN" block with the amount and the VAT rate.
      const characteristic = ram(detail, 'SpecifiedDocumentCharacteristic'); // MDG-43
      text(characteristic, 'TypeCode', 'MEN'); // MDT-207
      text(characteristic, 'ValueAmount', input.amount.value, { currencyID: invoice.currency }); // MDT-215
      text(characteristic, 'ValuePercent', input.amount.vatRate); // MDT-224
    }
  }
  return root;
}

/** A trade party in the order of TradePartyType: its SIREN (unless `siren` is false), name, role and, when `address`,
 * its electronic address (when it has one). */
function party(parent: XMLBuilder, name: string, p: StatusParty, role: string, opts: { siren?: boolean; address?: boolean } = {}): void {
  const el = ram(parent, name);
  if (opts.siren !== false) text(el, 'GlobalID', p.siren, { schemeID: SIREN_SCHEME });
  text(el, 'Name', p.name);
  text(el, 'RoleCode', role);
  if (opts.address && p.endpoint && !blank(p.endpoint.id)) {
    text(ram(el, 'URIUniversalCommunication'), 'URIID', p.endpoint.id, { schemeID: p.endpoint.scheme });
  }
}

/** `ram:<name>/udt:DateTimeString format="204"` (CCYYMMDDHHMMSS), in UTC: the format carries no time zone. */
function dateTime(parent: XMLBuilder, name: string, at: Date): void {
  const stamp = at.toISOString().slice(0, 19).replace(/[-T:]/g, '');
  ram(parent, name).ele(NS.udt, 'udt:DateTimeString', { format: '204' }).txt(stamp);
}

const blank = (s: string | undefined): boolean => s === undefined || s.trim() === '';

/** A calendar date written YYYY-MM-DD (not 2026-02-30). */
function isoDate(s: string): boolean {
  const t = /^\d{4}-\d{2}-\d{2}$/.test(s) ? Date.parse(`${s}T00:00:00Z`) : NaN;
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s;
}

/** Throws on the first input the message cannot carry or the rules would reject. */
function check(input: StatusInput): void {
  const { status, invoice } = input;
  function fail(what: string): never {
    throw new Error(`CDAR status message (${status}): ${what}`);
  }
  if (!Object.hasOwn(STATUS_CODES, status)) fail(`unknown status; one of ${Object.keys(STATUS_CODES).join(', ')}`);
  if (blank(input.id)) fail('input.id (MDT-4) is missing');
  if (!(input.issuedAt instanceof Date) || Number.isNaN(input.issuedAt.getTime())) fail('input.issuedAt (MDG-4) is not a date');
  if (blank(invoice.number)) fail('input.invoice.number (MDT-87) is missing');
  if (!isoDate(invoice.issueDate)) fail('input.invoice.issueDate (MDG-35) is not an ISO date (YYYY-MM-DD)');
  if (!/^\d{3}$/.test(invoice.typeCode)) fail('input.invoice.typeCode (MDT-91) is not a UNTDID 1001 code');
  const bySeller = status === 'paid';
  const [issuer, recipient] = bySeller ? (['seller', 'buyer'] as const) : (['buyer', 'seller'] as const);
  if (!SIREN.test(invoice.seller.siren ?? '')) fail('input.invoice.seller.siren (MDT-129, BR-FR-CDV-13) is missing or not 9 digits');
  if (!SIREN.test(invoice[issuer].siren ?? '')) fail(`input.invoice.${issuer}.siren (MDT-38, BR-FR-CDV-07) is missing or not 9 digits`);
  const address = invoice[recipient].endpoint;
  if (!address || blank(address.id) || blank(address.scheme)) fail(`input.invoice.${recipient}.endpoint (MDT-73, BR-FR-CDV-08) is missing`);

  const reasons = REASON_CODES[status];
  if (reasons) {
    if (!input.reason || blank(input.reason.code)) fail(`input.reason (MDT-113, BR-FR-CDV-15) is missing; one of ${reasons.join(', ')}`);
    if (!reasons.includes(input.reason.code)) fail(`input.reason.code is not one of ${reasons.join(', ')} (BR-FR-CDV-CL-09)`);
  } else if (input.reason) fail('input.reason is for refused and disputed only');

  if (bySeller) {
    const amount = input.amount;
    if (!amount) fail('input.amount (MDT-215, BR-FR-CDV-14) is missing');
    if (!AMOUNT.test(amount.value)) fail('input.amount.value is not a decimal with 2 decimals');
    // BR-FR-CDV-14 (v1.4.0) requires the VAT rate in every MEN block.
    if (amount.vatRate === undefined || blank(amount.vatRate)) fail('input.amount.vatRate (MDT-224, BR-FR-CDV-14) is missing');
    if (!PERCENT.test(amount.vatRate)) fail('input.amount.vatRate is not a percentage (e.g. 20 or 5.5)');
    if (!/^[A-Z]{3}$/.test(invoice.currency)) fail('input.invoice.currency is not an ISO 4217 code');
  } else if (input.amount) fail('input.amount is for paid only');
}
