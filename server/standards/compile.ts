// Compiling the business rules for SaxonJS, as their publishers' own instructions do it: a Schematron becomes XSLT
// with SchXslt's pipeline (itself an artefact of the manifest), and an XSLT becomes a SaxonJS SEF with `xslt3 -export`
// (the npm package xslt3, SaxonJS's command line; a development dependency: only the install step compiles). Each
// compilation is a child process of its own, so two run at once on two cores.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Compile } from './manifest';

const run = promisify(execFile);

let found: { script: string; version: string } | undefined;

/** xslt3's script and version (looked up once); throws when it is not installed. */
export function xslt3(): { script: string; version: string } {
  if (found) return found;
  let script: string;
  try {
    script = require.resolve('xslt3/xslt3.js');
  } catch {
    throw new Error('the npm package xslt3 is not installed: run `npm ci` (it is a development dependency) before compiling rules');
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(path.dirname(script), 'package.json'), 'utf8')) as { version: string };
  found = { script, version: pkg.version };
  return found;
}

async function xslt3Run(args: string[], cwd: string): Promise<void> {
  try {
    await run(process.execPath, [xslt3().script, ...args], { cwd, maxBuffer: 16 << 20 });
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    const text = `${e.stderr ?? ''}${e.stdout ?? ''}`.trim() || e.message;
    throw new Error(text.split('\n').slice(-6).join('\n'), { cause: err });
  }
}

/** Compiles `c` from the sources in `dir` into `dir/c.output`, using `work` (a folder of its own) for what lies
 * between. The output appears whole or not at all. */
export async function compileRules(c: Compile, dir: string, work: string): Promise<void> {
  const source = path.join(dir, c.from);
  let xsl = source;
  if (c.schematronPipeline) {
    xsl = path.join(work, `${path.basename(c.from).replace(/\.sch$/i, '')}.xsl`);
    await xslt3Run([`-xsl:${path.join(dir, c.schematronPipeline)}`, `-s:${source}`, `-o:${xsl}`], path.dirname(source));
  }
  const output = path.join(dir, c.output);
  const partial = path.join(work, path.basename(c.output));
  // Compiled in the stylesheet's own folder, relocatable: the files it reads are found beside the SEF at run time.
  await xslt3Run(['-relocate:on', `-xsl:${xsl}`, `-export:${partial}`, '-nogo'], path.dirname(xsl));
  fs.mkdirSync(path.dirname(output), { recursive: true });
  fs.copyFileSync(partial, `${output}.partial`);
  fs.renameSync(`${output}.partial`, output);
}
