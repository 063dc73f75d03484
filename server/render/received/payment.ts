// How a received e-invoice is to be paid and what VAT it charges, for the block after its totals: the payment
// instructions (BG-16 … BG-19: the means in words with its code, BT-82, the IBAN in groups or another account, its
// holder and BIC, the remittance information BT-83, further accounts, the card's last digits and holder, the direct
// debit's mandate, creditor id and debited account, payment notes) and the VAT breakdown (BG-23) as a table: each
// category in words with its code, rate, taxable amount, tax and exemption reason, with the VAT in the accounting
// currency (BT-6, BT-111) and the VAT point date code (BT-8) under it. Amounts as stated, only formatted.
import type { EInvoice, PaymentInstructions } from '../../einvoice/model';
import { Formatter } from '../labels/format';
import { ibanText, type ReceivedContext } from './context';
import { receivedType } from './document';
import { rows, section, type ReceivedRow, type ReceivedSection, type ReceivedTable } from './sections';

type Account = { iban?: string; accountId?: string; accountName?: string; bic?: string };

/** An account on one line each: its number, its holder, its BIC. */
function accountText(a: Account): string {
  return [a.iban ? ibanText(a.iban) : a.accountId, a.accountName, a.bic].filter(Boolean).join('\n');
}

function means(p: PaymentInstructions, ctx: ReceivedContext): string {
  const named = ctx.code('payment_means', p.code);
  const name = ctx.catalogues.codeName(ctx.locale.language, 'payment_means', p.code);
  // BT-82 when it says more than the code's name.
  return p.text && p.text !== name ? `${named}\n${p.text}` : named;
}

function paymentRows(p: PaymentInstructions, ctx: ReceivedContext): ReceivedRow[] {
  const { text } = ctx;
  const debit = p.directDebit;
  const card = p.card && [text('card_number', { number: p.card.number }), p.card.holder].filter(Boolean).join('\n');
  return rows(
    [text('means'), means(p, ctx)],
    [text('iban'), p.iban && ibanText(p.iban)],
    [text('account'), p.iban ? undefined : p.accountId],
    [text('account_name'), p.accountName],
    [text('bic'), p.bic],
    [text('remittance'), p.paymentId],
    ...(p.additionalAccounts ?? []).map((a): [string, string] => [text('further_account'), accountText(a)]),
    [text('card'), card],
    [text('mandate'), debit?.mandateReference],
    [text('creditor_id'), debit?.creditorId],
    [text('debited_account'), debit?.debitedAccount && ibanText(debit.debitedAccount)],
    ...p.notes.map((n): [string, string] => [text('payment_note'), n]),
  );
}

export function paymentSection(invoice: EInvoice, ctx: ReceivedContext): ReceivedSection[] {
  return invoice.payment ? section('payment', ctx.text('payment'), paymentRows(invoice.payment, ctx)) : [];
}

/** The VAT in the accounting currency and the VAT point date code, under the breakdown. */
function vatFoot(invoice: EInvoice, ctx: ReceivedContext): ReceivedRow[] {
  const { text } = ctx;
  const tc = invoice.taxCurrency;
  const inTaxCurrency = tc && new Formatter(ctx.locale.tag, tc.code, tc.minorUnits).formatMoney(tc.tax);
  const pointLabel = ctx.catalogues.label(ctx.locale.language, receivedType(invoice), 'tax_point_date_title');
  return rows(
    [text('vat_in_currency', { currency: tc?.code ?? '' }), inTaxCurrency],
    [pointLabel, invoice.taxPointDateCode && ctx.code('vat_point', invoice.taxPointDateCode)],
  );
}

export function vatTable(invoice: EInvoice, ctx: ReceivedContext): ReceivedTable | undefined {
  const { text, fmt } = ctx;
  const foot = vatFoot(invoice, ctx);
  if (invoice.vatBreakdown.length === 0 && foot.length === 0) return undefined;
  const reason = (b: EInvoice['vatBreakdown'][number]): string => [b.exemptionReason, b.exemptionReasonCode].filter(Boolean).join('\n');
  const withReasons = invoice.vatBreakdown.some((b) => reason(b) !== '');
  const left = 'left' as const;
  const right = 'right' as const;
  const columns = [
    { label: text('category'), align: left },
    { label: text('rate'), align: right },
    { label: text('taxable_amount'), align: right },
    { label: text('vat_amount'), align: right },
    ...(withReasons ? [{ label: text('exemption_reason'), align: left }] : []),
  ];
  const tableRows = invoice.vatBreakdown.map((b) => [
    { text: ctx.code('vat_category', b.category.code), align: left },
    { text: b.category.rate ? fmt.formatPercent(b.category.rate) : '', align: right, num: true },
    { text: fmt.formatMoney(b.taxable), align: right, num: true },
    { text: fmt.formatMoney(b.tax), align: right, num: true },
    ...(withReasons ? [{ text: reason(b), align: left }] : []),
  ]);
  return { title: text('vat_breakdown'), columns, rows: tableRows, foot };
}
