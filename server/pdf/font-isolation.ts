// The printer's view of system fonts: one font of our own. Chromium finds fonts for characters the page's own fonts
// lack through fontconfig; pointed at a configuration of its own whose only font is the shipped Noto Sans (Latin),
// it finds nothing else, so every glyph of a PDF comes from the fonts the project ships (themes/fonts.json) and a
// character none of them covers prints as a visible box (glyph 0, `.notdef`) instead of in whatever font a machine
// happens to have. Same output on every host. (With no font at all, Chromium sometimes prints pages without any
// text, hence the one; it must be an sfnt, so the woff2 is decompressed with wawoff2.)
// Must not know about documents or pages.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decompress } from 'wawoff2';

const FALLBACK_FONT = '@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff2';

let configFile: Promise<string> | undefined;

async function writeConfig(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docgen-fontconfig-'));
  const fonts = path.join(dir, 'fonts');
  fs.mkdirSync(fonts);
  fs.writeFileSync(path.join(fonts, 'NotoSans-Regular.ttf'), await decompress(fs.readFileSync(require.resolve(FALLBACK_FONT))));
  const file = path.join(dir, 'fonts.conf');
  fs.writeFileSync(
    file,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${fonts}</dir>\n  <cachedir>${path.join(dir, 'cache')}</cachedir>\n</fontconfig>\n`,
  );
  return file;
}

/** The environment for launching Chromium: the caller's, with FONTCONFIG_FILE naming the project's own fontconfig. */
export async function isolatedFontEnv(base: NodeJS.ProcessEnv = process.env): Promise<NodeJS.ProcessEnv> {
  let file = await configFile?.catch(() => undefined);
  if (!file || !fs.existsSync(file)) {
    configFile = writeConfig();
    file = await configFile;
  }
  return { ...base, FONTCONFIG_FILE: file };
}
