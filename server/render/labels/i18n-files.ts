// The one way the project opens the i18n package on a folder of JSON catalogues (the label catalogues,
// render/labels/catalogues.ts, and the API's counted messages, messages.ts): English the default, read once, never written
// back or reloaded, keys as dotted paths, silent, and a key a language lacks not looked up in English. Checks nothing:
// each caller parses and checks its files first (i18n reads a broken file as empty and only logs).
import { I18n } from 'i18n';

export function openI18n(directory: string, locales: string[]): I18n {
  return new I18n({
    locales,
    directory,
    defaultLocale: 'en',
    updateFiles: false,
    syncFiles: false,
    autoReload: false,
    objectNotation: true,
    retryInDefaultLocale: false,
    logWarnFn: () => undefined,
    logErrorFn: () => undefined,
  });
}
