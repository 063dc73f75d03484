// The bench's section on converting received e-invoices without a PDF (POST /ubl and /cii with an XML body), in one
// run, on the 33 official examples: the whole conversion as the service runs it (ReceivedPipeline.convert: the input
// checked against its XSD and rule sets, read into the model, written in the other syntax, the output's XSD), and its
// parts side by side (the check alone; read + write + XSD alone), so that the note can say where the time goes.
// No HTTP and no Chromium: nothing is printed on these routes.
import { loadAssets } from '../../server/assets';
import type { Config } from '../../server/config';
import { buildCii } from '../../server/einvoice/cii/build';
import { readCii } from '../../server/einvoice/cii/read';
import { buildUbl } from '../../server/einvoice/ubl/build';
import { readUbl } from '../../server/einvoice/ubl/read';
import { retarget } from '../../server/einvoice/received/retarget';
import { acquireRulesPool } from '../../server/einvoice/rules/rules-pool';
import { acquireXsdValidator } from '../../server/einvoice/xsd-validator';
import { parseXml } from '../../server/einvoice/xml-tree';
import { projectRoot } from '../../server/config';
import type { PdfRenderer } from '../../server/pdf/renderer';
import { DocumentPipeline } from '../../server/pipeline';
import { checkReceivedBody, ReceivedPipeline } from '../../server/received-pipeline';
import { officialExamples } from '../../test/helpers/received-invoices';
import { fmt } from './measure';

const pct = (times: number[], p: number): number => {
  const s = [...times].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
};

/** Conversions print nothing: a renderer that is never called. */
const NO_RENDERER = {
  render: () => Promise.reject(new Error('conversions print nothing')),
  isReady: () => true,
  stats: () => ({ queued: 0, active: 0, idlePages: 0, renders: 0, browserRestarts: 0, pagesReplaced: 0 }),
  close: async () => undefined,
} as unknown as PdfRenderer;

export async function benchConvert(config: Config, rounds: number): Promise<void> {
  const xsd = acquireXsdValidator(config);
  const rules = acquireRulesPool(config);
  await Promise.all([xsd.validator.ready(), rules.pool.ready()]);
  const pipeline = new DocumentPipeline(loadAssets(projectRoot(), config.limits), NO_RENDERER, xsd.validator, config);
  const received = new ReceivedPipeline(pipeline, xsd.validator, rules.pool, config.limits.maxItems);
  const locale = pipeline.locale(['en-US']);
  const examples = officialExamples().map((e) => {
    const cii = e.folder === 'en16931-cii';
    return { ...e, body: { kind: 'xml' as const, bytes: Buffer.from(e.xml) }, target: cii ? ('ubl' as const) : ('cii' as const), cii };
  });
  const contenders = [
    {
      name: 'conversion (check + read + write + XSD)',
      run: async (e: (typeof examples)[number]) => void (await received.convert(e.body, e.target, { locale })),
    },
    {
      name: 'its check alone (XSD + rule sets)',
      run: async (e: (typeof examples)[number]) => void (await checkReceivedBody(e.body, xsd.validator, rules.pool)),
    },
    {
      name: 'its read + write + XSD alone',
      run: async (e: (typeof examples)[number]) => {
        const root = parseXml(e.xml);
        const model = e.cii ? readCii(root, 'en16931') : readUbl(root, e.folder === 'peppol-bis-3' ? 'peppol' : 'en16931');
        const { invoice } = retarget(model, e.target);
        if (e.target === 'ubl') {
          const ubl = buildUbl(invoice);
          await xsd.validator.validate(ubl.xml, ubl.root);
        } else await xsd.validator.validate(buildCii(invoice), 'CrossIndustryInvoice');
      },
    },
  ];
  for (const e of examples) for (const c of contenders) await c.run(e);
  const times = contenders.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) {
    for (const [i, e] of examples.entries()) {
      for (let k = 0; k < contenders.length; k++) {
        const c = (r + i + k) % contenders.length;
        const t = performance.now();
        await contenders[c]!.run(e);
        times[c]!.push(performance.now() - t);
      }
    }
  }
  console.log(`\nconvert: ${examples.length} official examples × ${rounds} rounds, each to the other syntax, no PDF`);
  console.log('\n| | p50 ms | p95 ms |\n|---|---|---|');
  contenders.forEach((c, i) => console.log(`| ${c.name} | ${fmt(pct(times[i]!, 0.5))} | ${fmt(pct(times[i]!, 0.95))} |`));
  console.log(`\ntarget: a conversion without a PDF under 50 ms p50: ${fmt(pct(times[0]!, 0.5))} ms`);
  await rules.release();
  await xsd.release();
}
