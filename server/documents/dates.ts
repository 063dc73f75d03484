// Dates in requests (docs/decisions.md §4). For UBL: ISO 8601, an unambiguous English form (`Feb 9, 2015`, `February 9, 2015`,
// `9 Feb 2015`), or a numeric date read by the locale (en-US month first, every other locale day first).
// Returns YYYY-MM-DD, or undefined when the text is not a real calendar date. Pure functions.

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};

function iso(year: number, month: number, day: number): string | undefined {
  if (year < 1000 || year > 9999 || month < 1 || month > 12 || day < 1) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

function month(name: string): number | undefined {
  return MONTHS[name.toLowerCase().replace(/\.$/, '')];
}

/** An ISO 8601 time of day with its optional offset (`09:30`, `23:59:60.5Z`, `12:00+05:30`): whether it is a real
 * one (2015-02-09T25:61:00Z is not). A leap second (60) is real. */
function realTime(time: string): boolean {
  const m = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|([+-])(\d{2}):?(\d{2}))?$/.exec(time);
  if (!m) return false;
  const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  if (hour > 23 || minute > 59 || second > 60) return false;
  return m[4] === undefined || (Number(m[5]) <= 23 && Number(m[6]) <= 59);
}

export function parseDocumentDate(value: string, localeTag: string): string | undefined {
  const text = value.trim().replace(/\s+/g, ' ');
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](.+))?$/.exec(text);
  if (m) return m[4] === undefined || realTime(m[4]) ? iso(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
  // Feb 9, 2015 · February 9 2015 · Feb. 9th, 2015
  m = /^([A-Za-z]+\.?) (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})$/.exec(text);
  if (m && month(m[1]!)) return iso(Number(m[3]), month(m[1]!)!, Number(m[2]));
  // 9 Feb 2015 · 9 February, 2015 · 09-Feb-2015
  m = /^(\d{1,2})(?:st|nd|rd|th)?[ -]([A-Za-z]+\.?),?[ -](\d{4})$/.exec(text);
  if (m && month(m[2]!)) return iso(Number(m[3]), month(m[2]!)!, Number(m[1]));
  // 03/06/2024 · 3.6.2024 · 03-06-2024: en-US reads month first, every other locale day first.
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    return localeTag === 'en-US' ? iso(Number(m[3]), a, b) : iso(Number(m[3]), b, a);
  }
  // 2024/06/03 (year first is never ambiguous)
  m = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(text);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  return undefined;
}

/** Today's date in `timeZone` as YYYY-MM-DD. */
export function todayIso(timeZone: string, now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** A real ISO 8601 calendar date (2015-02-09, not 2015-02-30) as a UTC Date, else undefined. */
export function parseIsoDate(value: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!m || !iso(Number(m[1]), Number(m[2]), Number(m[3]))) return undefined;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
}
