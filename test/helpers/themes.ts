// The themes every "each theme" test renders: the folders of themes/ (documents/theme-ids.ts), the one list the
// service offers too, so that a theme dropped in is tested with no test edited.
import path from 'node:path';
import { projectRoot } from '../../server/config';
import { themeIdsIn } from '../../server/documents/theme-ids';

export const THEMES: readonly string[] = themeIdsIn(path.join(projectRoot(), 'themes'));
