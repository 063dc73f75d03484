// The API's own messages with a count in them (English, like every API message), from locales/api/en.json through
// the i18n package, which picks the plural form ("1 document", "100 documents") by the language's plural rules.
// Loaded once at start-up with the other data files (assets.ts): a missing or broken file stops start-up naming it.
// Knows nothing of HTTP.
import fs from 'node:fs';
import path from 'node:path';
import { openI18n } from './render/labels/i18n-files';

/** Each message with a count, and the values it names besides the count. */
export interface CountedMessageValues {
  quota_exceeded: { plan: string; reset: string; retry: string };
}

export interface CountedMessages {
  /** The message `key` for `count` things, with its other values filled in. */
  counted<K extends keyof CountedMessageValues>(key: K, count: number, values: CountedMessageValues[K]): string;
}

/** Reads and checks `dir`/en.json (locales/api); throws naming the file when it is missing or broken. */
export function loadCountedMessages(dir: string): CountedMessages {
  const file = path.join(dir, 'en.json');
  // i18n reads a broken file as empty and logs; parse it first so that start-up fails naming it.
  let catalogue: Record<string, { one?: unknown; other?: unknown } | undefined>;
  try {
    catalogue = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof catalogue;
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`, { cause: err });
  }
  const keys: (keyof CountedMessageValues)[] = ['quota_exceeded'];
  const broken = keys.filter((key) => typeof catalogue?.[key]?.one !== 'string' || typeof catalogue[key]?.other !== 'string');
  if (broken.length > 0) throw new Error(`${file}: ${broken.join(', ')} must each have "one" and "other" texts`);
  const i18n = openI18n(dir, ['en']);
  // The locale its `__n(phrase, count, values)` form reads (the only one it has).
  i18n.setLocale('en');
  return {
    counted: (key, count, values) => i18n.__n(key, count, { ...values, limit: count.toLocaleString('en-US') }),
  };
}
