// Median latency of one warm single-page invoice over HTTP, measured by a client on the same machine.
// Usage: npm run latency -- [URL] [KEY] [N]   (defaults: http://127.0.0.1:3000, $API_KEY, 200)
const [url = 'http://127.0.0.1:3000', key = process.env.API_KEY ?? '', n = '200'] = process.argv.slice(2);

const body = JSON.stringify({
  from: 'Nikolaus Ltd\n12 High Street\nLondon',
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

async function once(): Promise<number> {
  const t = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
  const bytes = (await res.arrayBuffer()).byteLength;
  if (res.status !== 200 || bytes < 1000) throw new Error(`HTTP ${res.status}`);
  return performance.now() - t;
}

(async () => {
  for (let i = 0; i < 20; i++) await once(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < Number(n); i++) times.push(await once());
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
  console.log(`${times.length} sequential requests: median ${q(0.5)} ms, p90 ${q(0.9)} ms, min ${q(0)} ms, max ${q(1)} ms`);
})().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
