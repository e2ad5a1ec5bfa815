// Memory and latency as the data grows: POST /v1/checkouts (autocannon) up to each level, then the
// server's RSS and GET /v1/checkouts/{id} (ids spread over the whole table) and list (first page
// and a deep page) p50/p99, one request at a time. The baseline is the first level: list p99 must
// stay flat (<= 2× the first level's, or under 5 ms), RSS <= 150 MB at the top level. RSS is
// read twice: right after the requests (information) and at rest, AT_REST_MS later, the figure
// judged: the sandbox's address worker (~10 MB) runs only while addresses are being drawn and
// stops 2 s after the last write, so what remains is what grows with the data.
import { join } from 'node:path';
import { api, figure, fmt, limitsOff, load, percentile, rssMb, startSandbox, stop, tempDir } from '../lib.js';

const MAX_RSS_MB = 150;
const FLAT = 2;
const FLAT_FLOOR_MS = 5;
const SAMPLES = 200;
const AT_REST_MS = 3_000;

export default {
  name: 'scale',
  async run({ config, log }) {
    const sandbox = await startSandbox({
      dbPath: join(tempDir(), 'bench-scale.db'),
      timeoutMs: 20_000,
      nodeArgs: process.env.BENCH_SCALE_NODE_ARGS ? process.env.BENCH_SCALE_NODE_ARGS.split(' ') : [],
    });
    try {
      const base = sandbox.urls.test;
      await limitsOff(base);
      const { api_key } = await api(base, 'POST', '/sandbox/merchants', { body: { name: 'Scale' } });
      const headers = { authorization: `Bearer ${api_key.key}` };
      const expires_at = new Date(Date.now() + 25 * 86_400_000).toISOString();
      const body = (title) => ({ title, amount: 5_000_000, expires_at });
      const ids = [];
      let count = 0;
      const levels = [];
      for (const level of config.scaleLevels) {
        // Sampled ids: some made one at a time at each level, so GETs hit old and new rows.
        for (let i = 0; i < 20; i++) {
          ids.push((await api(base, 'POST', '/v1/checkouts', { headers, body: body(`s${level}-${i}`) })).id);
        }
        count += 20;
        const grow = level - count;
        if (grow > 0) {
          const result = await load(
            {
              url: `${base}/v1/checkouts`,
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              bodyTemplate: JSON.stringify(body('Scale {{seq}}')),
              connections: 10,
              amount: grow,
            },
            { timeoutMs: 180_000 },
          );
          if (result.non2xx || result.errors)
            throw new Error(`scale: ${result.non2xx} non-2xx while growing`);
          count += result.total;
        }
        const time = async (path) => {
          const samples = [];
          for (let i = 0; i < SAMPLES; i++) {
            const started = performance.now();
            const res = await fetch(`${base}${typeof path === 'function' ? path(i) : path}`, { headers });
            await res.text();
            if (!res.ok) throw new Error(`scale: ${res.status}`);
            samples.push(performance.now() - started);
          }
          return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
        };
        const get = await time((i) => `/v1/checkouts/${ids[(i * 7919) % ids.length]}`);
        const list = await time('/v1/checkouts?limit=100');
        const deep = await time(
          (i) => `/v1/checkouts?limit=100&starting_after=${ids[(i * 31) % ids.length]}`,
        );
        const busyRss = rssMb(sandbox.child.pid);
        await new Promise((resolve) => setTimeout(resolve, AT_REST_MS));
        const rss = rssMb(sandbox.child.pid);
        levels.push({ level, count, rss_mb: rss, busy_rss_mb: busyRss, get, list, deep });
        log(
          `    ${fmt(count)} checkouts: RSS ${fmt(rss)} MB at rest (${fmt(busyRss)} MB right after the writes), GET p50/p99 ${fmt(get.p50, 1)}/${fmt(get.p99, 1)} ms, list ${fmt(list.p50, 1)}/${fmt(list.p99, 1)} ms, deep list ${fmt(deep.p50, 1)}/${fmt(deep.p99, 1)} ms`,
        );
      }
      const first = levels[0];
      const figures = levels.map((l) =>
        figure({
          name: `scale: ${fmt(l.count)} checkouts`,
          measured: `RSS ${fmt(l.rss_mb)} MB at rest (${fmt(l.busy_rss_mb)} busy); GET p50/p99 ${fmt(l.get.p50, 1)}/${fmt(l.get.p99, 1)} ms; list ${fmt(l.list.p50, 1)}/${fmt(l.list.p99, 1)} ms; deep list ${fmt(l.deep.p50, 1)}/${fmt(l.deep.p99, 1)} ms`,
          data: l,
        }),
      );
      const top = levels.at(-1);
      const listP99 = Math.max(top.list.p99, top.deep.p99);
      const firstP99 = Math.max(first.list.p99, first.deep.p99);
      const flatRatio = listP99 / firstP99;
      figures.push(
        figure({
          name: `scale: list p99 at ${fmt(top.count)} vs ${fmt(first.count)}`,
          measured: `${fmt(listP99, 1)} ms`,
          baseline: `${fmt(firstP99, 1)} ms at ${fmt(first.count)}`,
          ratio: flatRatio,
          target: `<= ${FLAT.toFixed(2)} (or p99 <= ${FLAT_FLOOR_MS} ms)`,
          pass: flatRatio <= FLAT || listP99 <= FLAT_FLOOR_MS,
        }),
        figure({
          name: `scale: RSS at ${fmt(top.count)} checkouts`,
          measured: `${fmt(top.rss_mb)} MB`,
          baseline: `${fmt(first.rss_mb)} MB at ${fmt(first.count)}`,
          ratio: top.rss_mb / first.rss_mb,
          target: `<= ${MAX_RSS_MB} MB`,
          pass: top.rss_mb <= MAX_RSS_MB,
        }),
      );
      return { figures };
    } finally {
      await stop(sandbox.child, 15_000);
    }
  },
};
