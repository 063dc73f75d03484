// Median latency of one warm single-page invoice over HTTP, measured by a client on the same machine, for POST / and
// POST /ubl side by side (requests alternate, so both see the same machine state).
// Usage: npm run latency -- [BASE_URL] [KEY] [N]   (defaults: http://127.0.0.1:3000, $API_KEY, 200)
const [base = 'http://127.0.0.1:3000', key = process.env.API_KEY ?? '', n = '200'] = process.argv.slice(2);

const body = JSON.stringify({
  from: 'Nikolaus Ltd\n12 High Street\nLondon\nVAT ID: GB123456789',
  to: 'Acme, Corp.',
  number: 1,
  date: 'Feb 9, 2015',
  due_date: 'Feb 16, 2015',
  items: [
    { name: 'Starter plan monthly', quantity: 1, unit_cost: 99 },
    { name: 'Support hours', quantity: 3, unit_cost: 45, description: 'Priority e-mail support' },
  ],
  tax: 8,
  notes: 'Thanks for being an awesome customer!',
});

async function once(path: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(base.replace(/\/$/, '') + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
  });
  const bytes = (await res.arrayBuffer()).byteLength;
  if (res.status !== 200 || bytes < 1000) throw new Error(`${path}: HTTP ${res.status}`);
  return performance.now() - t;
}

const stats = (times: number[]) => {
  const s = [...times].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return { median: q(0.5), p90: q(0.9), min: s[0]!, max: s[s.length - 1]! };
};

(async () => {
  for (let i = 0; i < 20; i++) {
    await once('/');
    await once('/ubl');
  }
  const pdf: number[] = [];
  const ubl: number[] = [];
  for (let i = 0; i < Number(n); i++) {
    pdf.push(await once('/'));
    ubl.push(await once('/ubl'));
  }
  const a = stats(pdf);
  const b = stats(ubl);
  const f = (x: number) => x.toFixed(1);
  console.log(`${n} sequential requests each, alternating:`);
  console.log(`  POST /    median ${f(a.median)} ms, p90 ${f(a.p90)} ms, min ${f(a.min)} ms, max ${f(a.max)} ms`);
  console.log(`  POST /ubl median ${f(b.median)} ms, p90 ${f(b.p90)} ms, min ${f(b.min)} ms, max ${f(b.max)} ms`);
  console.log(`  /ubl ÷ / median: ${(b.median / a.median).toFixed(2)}`);
})().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
