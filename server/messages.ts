// The API's own messages with a count in them (English, like every API message), from locales/api/en.json through
// the i18n package, which picks the plural form ("1 document", "100 documents") by the language's plural rules.
// Loaded once, when first imported; a missing or broken file stops start-up. Knows nothing of HTTP.
import fs from 'node:fs';
import path from 'node:path';
import { I18n } from 'i18n';
import { projectRoot } from './config';

const DIR = path.join(projectRoot(), 'locales', 'api');
/** Each message with a count, and the values it names besides the count. */
export interface CountedMessages {
  quota_exceeded: { plan: string; reset: string; retry: string };
}

function load(): I18n {
  const file = path.join(DIR, 'en.json');
  // i18n reads a broken file as empty and logs; parse it first so that start-up fails naming it.
  const catalogue = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, { one?: unknown; other?: unknown }>;
  const keys: (keyof CountedMessages)[] = ['quota_exceeded'];
  const broken = keys.filter((key) => typeof catalogue[key]?.one !== 'string' || typeof catalogue[key]?.other !== 'string');
  if (broken.length > 0) throw new Error(`${file}: ${broken.join(', ')} must each have "one" and "other" texts`);
  return new I18n({
    locales: ['en'],
    directory: DIR,
    defaultLocale: 'en',
    updateFiles: false,
    syncFiles: false,
    autoReload: false,
    objectNotation: true,
    logWarnFn: () => undefined,
    logErrorFn: () => undefined,
  });
}

const i18n = load();
// The locale its `__n(phrase, count, values)` form reads (the only one it has).
i18n.setLocale('en');

/** The message `key` for `count` things, with its other values filled in. */
export function countedMessage<K extends keyof CountedMessages>(key: K, count: number, values: CountedMessages[K]): string {
  return i18n.__n(key, count, { ...values, limit: count.toLocaleString('en-US') });
}
