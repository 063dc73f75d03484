// What a line says besides its name and description, printed under the name in small type: the item's identifiers
// (BT-155 to BT-157: "Art. No.: A-1 · GTIN 4012345678901"), its origin and attributes (BT-159, BG-32: "Origin: Ethiopia
// · Colour: red"), its period (BG-26) and its note (BT-127); and the quantity with its unit's short name in the
// language ("16 Std.", "16 h", "12.5 kg"; render/labels/units.ts). Plain data for the view model.
import type { LineItem } from '../../documents/model';
import type { Decimal } from '../../money/totals';
import type { Catalogues } from '../labels/catalogues';
import { periodText, type DetailContext, type DetailLabelKey } from './document-details';
import type { Formatter } from '../labels/format';
import type { Locale } from '../labels/locale';

export interface LineContext extends DetailContext {
  catalogues: Pick<Catalogues, 'unit' | 'itemScheme'>;
  /** The catalogue's language (`de`). */
  language: string;
  /** A country's name in the document's language (ET → "Ethiopia", "Äthiopien"). */
  country: (code: string) => string;
  /** A label with its rate: "Allowance (10%)". */
  rateLabel: (label: string, rate: string) => string;
}

/** The context of one document's details and lines: its formatter, labels and catalogue texts in its language. */
export function lineContext(fmt: Formatter, label: (key: DetailLabelKey) => string, catalogues: Catalogues, locale: Locale): LineContext {
  const text = (key: string, values: Record<string, string>) => catalogues.text(locale.language, key, values);
  return {
    fmt,
    label,
    text,
    catalogues,
    language: locale.language,
    country: countryNames(locale.tag),
    rateLabel: (title, rate) => text('rate_label', { label: title, rate }),
  };
}

const SEPARATOR = ' · ';

/** The quantity as printed in the quantity column, with the unit's short name when the line has a unit. */
export function quantityWithUnit(quantity: Decimal, unit: string | undefined, ctx: LineContext): string {
  const text = ctx.fmt.formatQuantity(quantity);
  if (!unit) return text;
  const name = ctx.catalogues.unit(ctx.language, unit, quantity.toNumber());
  return name ? ctx.text('quantity_unit', { quantity: text, unit: name }) : text;
}

/** Country names in the language of `tag` (ET → "Ethiopia", "Äthiopien"), the code when Intl has none: one
 * Intl.DisplayNames per document, made for the first line that has an origin. */
export function countryNames(tag: string): (code: string) => string {
  let names: Intl.DisplayNames | undefined;
  return (code) => {
    try {
      names ??= new Intl.DisplayNames([tag], { type: 'region', fallback: 'code' });
      return names.of(code.toUpperCase()) ?? code;
    } catch {
      return code;
    }
  };
}

function identifiers(item: LineItem, { label, text, catalogues }: LineContext): string[] {
  const out: string[] = [];
  if (item.sku) out.push(text('labelled', { label: label('sku_title'), value: item.sku }));
  if (item.seller_item_id) out.push(text('labelled', { label: label('seller_item_id_title'), value: item.seller_item_id }));
  if (item.buyer_item_id) out.push(text('labelled', { label: label('buyer_item_id_title'), value: item.buyer_item_id }));
  const standard = item.standard_item_id;
  if (standard) {
    const scheme = catalogues.itemScheme(standard.scheme);
    out.push(
      scheme
        ? `${scheme} ${standard.id}`
        : text('labelled', { label: label('standard_item_id_title'), value: `${standard.id} (${standard.scheme})` }),
    );
  }
  return out;
}

function properties(item: LineItem, { label, text, country }: LineContext): string[] {
  const out: string[] = [];
  if (item.origin_country) out.push(text('labelled', { label: label('origin_country_title'), value: country(item.origin_country) }));
  for (const { name, value } of item.attributes ?? []) out.push(text('labelled', { label: name, value }));
  return out;
}

const hasDetails = (i: LineItem): boolean =>
  Boolean(
    i.sku || i.seller_item_id || i.buyer_item_id || i.standard_item_id || i.origin_country || i.attributes?.length || i.period || i.note,
  );

/** The small lines under a line's name, each a text; undefined when the line has no such data (most lines: a
 * 1,000-line statement pays next to nothing for them). */
export function lineDetails(item: LineItem, ctx: LineContext): string[] | undefined {
  if (!hasDetails(item)) return undefined;
  const out: string[] = [];
  const ids = identifiers(item, ctx);
  if (ids.length) out.push(ids.join(SEPARATOR));
  const props = properties(item, ctx);
  if (props.length) out.push(props.join(SEPARATOR));
  const period = periodText(item.period, ctx);
  if (period) out.push(ctx.text('labelled', { label: ctx.label('period_title'), value: period }));
  if (item.note) out.push(item.note);
  return out.length ? out : undefined;
}
