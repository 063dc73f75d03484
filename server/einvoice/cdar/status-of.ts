// A lifecycle status request (POST /status, schemas/status-request.json) and the received French invoice it is about,
// as the CDAR message's input (build.ts): the parties by their SIREN and electronic address, the invoice's number, date
// and type, the reason of a refusal or dispute, the amount and VAT rate collected. Everything the request or the
// invoice lacks for a message the French rules accept is one validation problem naming the request's field (the
// invoice's terms under `invoice`), so that build.ts's own guard is never what a client meets. No XML, no HTTP.
import { randomUUID } from 'node:crypto';
import { errors, type FieldProblem } from '../../errors';
import { Decimal } from '../../money/decimal';
import { sirenOf } from '../france';
import type { EInvoice, Party } from '../model';
import { REASON_CODES, type LifecycleStatus, type StatusInput, type StatusParty } from './build';

/** A status request as its schema passed it. */
export interface StatusRequest {
  invoice: string;
  status: LifecycleStatus;
  reason?: string;
  reason_text?: string;
  amount?: number;
  vat_rate?: number;
  id?: string;
}

/** Decimals of a number as sent, written out in full (0.1 + 0.2 sent as 0.30000000000000004 has 17; 1e-7 has 7). */
const decimals = (n: number): number => new Decimal(n).decimalPlaces();

function statusParty(party: Party): StatusParty {
  return { name: party.name, siren: sirenOf(party), endpoint: party.endpoint };
}

/** The invoice's parties as the message needs them: both SIRENs (BR-FR-CDV-07, -13), the recipient's address. */
function partyProblems(invoice: EInvoice, status: LifecycleStatus, out: FieldProblem[]): void {
  for (const role of ['seller', 'buyer'] as const) {
    if (!/^\d{9}$/.test(sirenOf(invoice[role]) ?? '')) {
      out.push({
        field: 'invoice',
        message: `invoice gives no SIREN for the ${role} (${role === 'seller' ? 'BT-30' : 'BT-47'}, scheme 0002): a status names both parties by their SIREN`,
      });
    }
  }
  const recipient = status === 'paid' ? 'buyer' : 'seller';
  if (!invoice[recipient].endpoint) {
    out.push({
      field: 'invoice',
      message: `invoice gives no electronic address for the ${recipient} (${recipient === 'seller' ? 'BT-34' : 'BT-49'}): the status is sent there`,
    });
  }
}

function reasonProblems(request: StatusRequest, out: FieldProblem[]): void {
  const allowed = REASON_CODES[request.status];
  if (allowed && request.reason === undefined) {
    out.push({ field: 'reason', message: `reason is required for status ${request.status}: one of ${allowed.join(', ')}` });
  } else if (allowed && !allowed.includes(request.reason!)) {
    out.push({ field: 'reason', message: `reason for status ${request.status} is one of ${allowed.join(', ')}` });
  } else if (!allowed && (request.reason !== undefined || request.reason_text !== undefined)) {
    out.push({
      field: request.reason !== undefined ? 'reason' : 'reason_text',
      message: 'a reason is given for the statuses refused and disputed only',
    });
  }
}

/** The amount collected and its VAT rate (paid): sent, or the invoice's amount due and its one VAT rate. */
function amountOf(request: StatusRequest, invoice: EInvoice, out: FieldProblem[]): StatusInput['amount'] {
  if (request.status !== 'paid') {
    for (const field of ['amount', 'vat_rate'] as const) {
      if (request[field] !== undefined) out.push({ field, message: `${field} is given for the status paid only` });
    }
    return undefined;
  }
  // The schema's bounds: a number too large for a double ("1e400") is infinite, on which JSON Schema checks none.
  if (request.amount !== undefined && !Number.isFinite(request.amount)) {
    out.push({ field: 'amount', message: 'amount must be a number above 0 and at most 999999999999' });
  } else if (request.amount !== undefined && decimals(request.amount) > 2) {
    out.push({ field: 'amount', message: 'amount has at most 2 decimals (an amount in the invoice currency)' });
  }
  if (request.vat_rate !== undefined && !Number.isFinite(request.vat_rate)) {
    out.push({ field: 'vat_rate', message: 'vat_rate must be a number from 0 to 100' });
  } else if (request.vat_rate !== undefined && decimals(request.vat_rate) > 2) {
    out.push({ field: 'vat_rate', message: 'vat_rate has at most 2 decimals' });
  }
  const rates = [...new Set(invoice.vatBreakdown.flatMap((b) => (b.category.rate === undefined ? [] : [b.category.rate.toString()])))];
  const rate = request.vat_rate !== undefined ? String(request.vat_rate) : rates.length === 1 ? rates[0] : undefined;
  if (rate === undefined) {
    out.push({
      field: 'vat_rate',
      message: `vat_rate is required: the invoice has ${rates.length === 0 ? 'no VAT rate' : `several VAT rates (${rates.join(', ')})`}, and a collected amount is stated with its rate (BR-FR-CDV-14)`,
    });
  }
  const value = request.amount !== undefined ? request.amount.toFixed(2) : invoice.totals.payable.toFixed(2);
  if (request.amount === undefined && !invoice.totals.payable.isPositive()) {
    out.push({ field: 'amount', message: 'amount is required: the invoice has no amount due' });
  }
  return { value, vatRate: rate ?? '0' };
}

/** The message's input for `request` about the received French `invoice`; every problem thrown at once. */
export function statusInput(request: StatusRequest, invoice: EInvoice, now: Date): StatusInput {
  const out: FieldProblem[] = [];
  partyProblems(invoice, request.status, out);
  reasonProblems(request, out);
  const amount = amountOf(request, invoice, out);
  if (out.length > 0) throw errors.validation(out);
  return {
    status: request.status,
    id: request.id ?? `CDV-${randomUUID()}`,
    issuedAt: now,
    invoice: {
      number: invoice.number,
      issueDate: invoice.issueDate,
      typeCode: invoice.typeCode,
      seller: statusParty(invoice.seller),
      buyer: statusParty(invoice.buyer),
      currency: invoice.currency,
    },
    reason: request.reason !== undefined ? { code: request.reason, text: request.reason_text } : undefined,
    amount,
  };
}
