// A request's headers given as a plain record (a published example's `request.headers`, read by the command-line
// renderer) turned into the values the core takes, as the API reads them: the body kind (body-kind.ts; JSON when none
// is named) and the language preferences (accept-language.ts). Header names are matched in any case.
import type { BodyKind } from '../documents/parse-body';
import type { LanguagePreferences } from '../render/labels/locale';
import { languagePreferences } from './accept-language';
import { bodyKind } from './body-kind';

export function headerValues(headers: Readonly<Record<string, string>> = {}): { kind: BodyKind; languages: LanguagePreferences } {
  const named = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    kind: bodyKind(named.get('content-type') ?? 'application/json'),
    languages: languagePreferences(named.get('accept-language')),
  };
}
