// HTTP routes vs a bare Fastify hello world, interleaved A/B rounds in one run: B G P B G P B ...
// Each sandbox figure is divided by the mean of the bare runs just before and after it, so a
// machine that slows down or speeds up mid-run moves both sides of every ratio together.
import {
  api,
  bareSpec,
  figure,
  fmt,
  load,
  median,
  merchantHeaders,
  startWriteFloor,
  stop,
  throughputTarget,
  weekFromNow,
  withSandboxAndBaseline,
} from '../lib.js';

// Each route: its ratio to bare Fastify, and the server's CPU per request. GET reads one row and
// writes 1.3 KB: 40 µs is a bare request (15–24 µs on Node 24) plus the row, the key check and the
// request log. POST also writes the checkout, its event and its expiry, and commits.
// Beside each route the section measures its floor (write-floor-server.js: Fastify and the same
// reads and writes, nothing else) in the same rounds, for information: what any server storing a
// checkout the way the sandbox does spends on this machine, so what is the sandbox's own share
// (not in --quick: `config.floors`).
const TARGETS = {
  get: throughputTarget({ ratio: 0.6, cpuUs: 40 }),
  post: throughputTarget({ ratio: 0.15, cpuUs: 120 }),
};

export default {
  name: 'http',
  async run({ config, log }) {
    return withSandboxAndBaseline(
      { name: 'http', nodeArgs: config.serverNodeArgs },
      async ({ bare, sandbox, base }) => {
        const floor = config.floors ? await startWriteFloor() : undefined;
        try {
          return await measureRoutes({ config, log, bare, sandbox, base, floor });
        } finally {
          if (floor) await stop(floor.child);
        }
      },
    );
  },
};

async function measureRoutes({ config, log, bare, sandbox, base, floor }) {
  const headers = await merchantHeaders(base, 'Bench');
  const expires_at = weekFromNow();
  const checkout = await api(base, 'POST', '/v1/checkouts', {
    headers,
    body: { title: 'Bench order', amount: 5_000_000, expires_at },
  });
  const specs = {
    bare: bareSpec(bare, config.load),
    get: [
      { url: `${base}/v1/checkouts/${checkout.id}`, headers, ...config.load },
      { serverPid: sandbox.child.pid },
    ],
    post: [
      {
        url: `${base}/v1/checkouts`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        // No reference, so no uniqueness collisions; titles are unique anyway.
        bodyTemplate: JSON.stringify({ title: 'Bench order {{seq}}', amount: 5_000_000, expires_at }),
        ...config.load,
      },
      { serverPid: sandbox.child.pid },
    ],
  };
  if (floor) {
    specs.floorGet = [
      { ...specs.get[0], url: `${floor.url}/v1/checkouts/${floor.checkoutId}`, headers: floor.headers },
      { serverPid: floor.child.pid },
    ];
    specs.floorPost = [
      {
        ...specs.post[0],
        url: `${floor.url}/v1/checkouts`,
        headers: { ...floor.headers, 'content-type': 'application/json' },
      },
      { serverPid: floor.child.pid },
    ];
  }
  const floors = floor ? ['floorGet', 'floorPost'] : [];
  const runs = { bare: [], get: [], post: [], floorGet: [], floorPost: [] };
  const ratios = { get: [], post: [], floorGet: [], floorPost: [] };
  const measure = async (what) => {
    const result = await load(...specs[what]);
    if (result.non2xx || result.errors || !result.total)
      throw new Error(`${what}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    runs[what].push(result);
    log(`    ${what.padEnd(9)} ${fmt(result.rps)} req/s, ${fmt(result.server_cpu_us_per_req)} µs CPU/req`);
    return result.rps;
  };
  // Warm-up, not measured: each server runs each of its loads first, so the rounds compare
  // steady states (the ready section measures the cold start). Unwarmed, the sandbox's later
  // rounds ran faster than its first (POST 0.11, 0.14, 0.16 of bare in one run).
  if (config.warmupSeconds > 0) {
    for (const what of ['get', 'post', ...floors, 'bare']) {
      const [spec, options] = specs[what];
      await load({ ...spec, duration: config.warmupSeconds, warmup: undefined }, options);
    }
  }
  let before = await measure('bare');
  for (let round = 0; round < config.rounds; round++) {
    const get = await measure('get');
    const post = await measure('post');
    const floorRps = {};
    for (const what of floors) floorRps[what] = await measure(what);
    const after = await measure('bare');
    const reference = (before + after) / 2;
    ratios.get.push(get / reference);
    ratios.post.push(post / reference);
    for (const what of floors) ratios[what].push(floorRps[what] / reference);
    before = after;
  }
  const bareRps = median(runs.bare.map((r) => r.rps));
  const bareCpu = median(runs.bare.map((r) => r.server_cpu_us_per_req));
  const spread =
    (Math.max(...runs.bare.map((r) => r.rps)) - Math.min(...runs.bare.map((r) => r.rps))) / bareRps;
  const row = (what, name) => {
    const rps = median(runs[what].map((r) => r.rps));
    const p99 = median(runs[what].map((r) => r.latency_ms.p99));
    const cpu = median(runs[what].map((r) => r.server_cpu_us_per_req));
    const ratio = median(ratios[what]);
    return figure({
      name,
      measured: `${fmt(rps)} req/s, p99 ${fmt(p99)} ms, ${fmt(cpu)} µs CPU/req`,
      baseline: `bare Fastify GET /: ${fmt(bareRps)} req/s, ${fmt(bareCpu)} µs CPU/req`,
      ratio,
      target: TARGETS[what].text,
      pass: TARGETS[what].pass(ratio, cpu),
      data: { rps, p99_ms: p99, cpu_us_per_req: cpu, ratios: ratios[what], runs: runs[what] },
    });
  };
  // The floors: CPU beside the sandbox's, and their own ratio to bare, which no code of the
  // sandbox's can beat (it does what the floor does, and more).
  const floorRow = (what, route, name) => {
    const cpu = median(runs[what].map((r) => r.server_cpu_us_per_req));
    const routeCpu = median(runs[route].map((r) => r.server_cpu_us_per_req));
    return figure({
      name,
      measured: `${fmt(median(runs[what].map((r) => r.rps)))} req/s, ${fmt(cpu)} µs CPU/req, ${fmt(median(ratios[what]), 2)} of bare`,
      baseline: `the sandbox's ${route.toUpperCase()}: ${fmt(routeCpu)} µs CPU/req`,
      ratio: routeCpu / cpu,
      data: { cpu_us_per_req: cpu, ratios: ratios[what], runs: runs[what] },
    });
  };
  return {
    figures: [
      row('get', 'GET /v1/checkouts/{id}'),
      row('post', 'POST /v1/checkouts'),
      ...(floor
        ? [
            floorRow('floorGet', 'get', 'GET floor: Fastify + the same read (information)'),
            floorRow('floorPost', 'post', 'POST floor: Fastify + the same writes (information)'),
          ]
        : []),
    ],
    notes: [
      `http: ${config.rounds} round(s) of ${config.load.duration} s per route, ${config.load.connections} connections; ratio = median over rounds of route req/s ÷ mean of the bare runs around it; the bare runs differ by ${fmt(100 * spread)}%${spread > 0.25 ? ' (the machine was busy)' : ''}`,
    ],
    data: { bare: runs.bare },
  };
}
