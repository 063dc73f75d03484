// An account's brand (PUT /brand): its base theme, accent and text colours, body font, logo, letterhead footer,
// language and paper, applied to every document made with the account's keys unless the request says otherwise. Checks
// a brand as sent (schemas/brand.json, then what a schema cannot say: a colour whose text would be unreadable, by the
// WCAG 2.1 contrast ratio; a font that is not shipped or prints no Latin; a language without a catalogue) and lays a
// brand under a request. Every problem names its field. Knows no store and no HTTP; the logo is fetched and checked
// where logos are (logo/), once, when the brand is set.
import { errors, MAX_DETAILS, type FieldProblem } from '../errors';
import type { ParsedBody } from './parse-body';
import type { SchemaRegistry } from './schema-registry';
import { toProblems } from './validate';

export interface Brand {
  theme?: string;
  accent_color?: string;
  text_color?: string;
  font?: string;
  logo?: string;
  footer?: string;
  language?: string;
  page_size?: 'letter' | 'a4';
}

/** The fields a brand gives a request that does not send them. */
const REQUEST_DEFAULTS = ['theme', 'logo', 'footer', 'page_size'] as const;

/** WCAG 2.1's least contrast of normal text with its background. */
export const MIN_CONTRAST = 4.5;

/** The relative luminance of a #rrggbb colour (WCAG 2.1). */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** The contrast ratio of two #rrggbb colours, 1 to 21 (WCAG 2.1). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

export interface BrandContext {
  /** The font families a brand may choose (shipped, printing Latin text). */
  fonts: readonly string[];
  /** The languages with a catalogue (en, de …). */
  languages: readonly string[];
}

function colourProblems(brand: Brand): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const field of ['accent_color', 'text_color'] as const) {
    const colour = brand[field];
    if (typeof colour !== 'string' || !/^#[0-9a-f]{6}$/i.test(colour)) continue;
    const ratio = contrastRatio(colour, '#ffffff');
    if (ratio < MIN_CONTRAST)
      out.push({
        field,
        message: `${field} ${colour} has a contrast of ${ratio.toFixed(2)}:1 with white, below WCAG's ${MIN_CONTRAST}:1: ${field === 'accent_color' ? 'white text on it and it on the page' : 'the text'} would be hard to read; choose a darker colour`,
      });
  }
  return out;
}

/** The body of PUT /brand as a brand (colours in lower case, the font's own name), or a validation error naming every
 * problem: the schema's, and what it cannot say of the fields it let through. */
export function validateBrand(registry: SchemaRegistry, body: ParsedBody, ctx: BrandContext): Brand {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw errors.notAnObject('brand');
  const validate = registry.brandRequest;
  const problems = validate(body) ? [] : toProblems(validate.errors ?? [], 'invoice', MAX_DETAILS);
  const named = new Set(problems.map((p) => p.field));
  const brand = { ...(body as Brand) };
  const sound = (field: keyof Brand) => typeof brand[field] === 'string' && !named.has(field);
  problems.push(...colourProblems(brand).filter((p) => sound(p.field as keyof Brand)));
  if (sound('font')) {
    const font = ctx.fonts.find((f) => f.toLowerCase() === brand.font!.trim().toLowerCase());
    if (font) brand.font = font;
    else
      problems.push({ field: 'font', message: `font must be one of ${ctx.fonts.join(', ')} (the shipped families that print Latin text)` });
  }
  if (sound('language')) {
    const primary = brand.language!.trim().toLowerCase().split(/[-_]/)[0]!;
    if (!ctx.languages.includes(primary))
      problems.push({ field: 'language', message: `language must be one of ${ctx.languages.join(', ')}, or a tag of one (de-CH)` });
  }
  if (problems.length > 0) throw errors.validation(problems, 'brand');
  for (const field of ['accent_color', 'text_color'] as const) if (brand[field]) brand[field] = brand[field]!.toLowerCase();
  return brand;
}

/** A request with the brand's theme, logo, footer and paper where it sends none (a request's own always wins). */
export function underBrand(body: ParsedBody, brand: Brand | undefined): ParsedBody {
  if (!brand || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const sent = body as Record<string, unknown>;
  const out: Record<string, unknown> = { ...sent };
  for (const field of REQUEST_DEFAULTS) {
    const own = sent[field];
    if ((own === undefined || own === null || own === '') && brand[field] !== undefined) out[field] = brand[field];
  }
  return out;
}
