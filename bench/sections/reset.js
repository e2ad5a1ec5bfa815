// What a CI suite that isolates each test by merchant pays per test: merchants/s (each one five
// static addresses and an API key) under load, interleaved with the bare Fastify GET / (A/B/A), and
// the time of POST /sandbox/reset on a workspace with data, against a bare Fastify round trip.
import {
  api,
  bareSpec,
  figure,
  fmt,
  limitsOff,
  load,
  median,
  merchantHeaders,
  throughputTarget,
  timeEach,
  weekFromNow,
  withSandboxAndBaseline,
} from '../lib.js';

// merchants/s: ten static addresses (five chains × two environments), each a row under a unique
// index on a random string, plus the merchant and its key; see bench/README.md, "merchants/s: what
// creating one must do".
const TARGETS = { merchants: throughputTarget({ ratio: 0.03, cpuUs: 800 }), reset: 25 };

export default {
  name: 'reset',
  async run({ config, log }) {
    return withSandboxAndBaseline({ name: 'reset' }, async ({ bare, sandbox, base }) => {
      const baseline = bareSpec(bare, config.load);
      const merchantSpec = [
        {
          url: `${base}/sandbox/merchants`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          bodyTemplate: JSON.stringify({ name: 'CI merchant {{seq}}' }),
          ...config.load,
        },
        { serverPid: sandbox.child.pid },
      ];
      // Warm-up, not measured (see the http section).
      if (config.warmupSeconds > 0) {
        await load({ ...merchantSpec[0], duration: config.warmupSeconds, warmup: undefined }, {});
        await load({ ...baseline[0], duration: config.warmupSeconds, warmup: undefined }, {});
      }
      const bareRuns = [(await load(...baseline)).rps];
      const merchantRuns = [];
      const ratios = [];
      for (let round = 0; round < config.rounds; round++) {
        const result = await load(...merchantSpec);
        if (result.non2xx || result.errors)
          throw new Error(`POST /sandbox/merchants: ${result.non2xx} non-2xx`);
        merchantRuns.push(result);
        bareRuns.push((await load(...baseline)).rps);
        ratios.push(result.rps / ((bareRuns[round] + bareRuns[round + 1]) / 2));
        log(
          `    merchants ${fmt(result.rps)}/s, ${fmt(result.server_cpu_us_per_req)} µs CPU/merchant, bare ${fmt(bareRuns.at(-1))} req/s`,
        );
      }

      // Reset with data: what the load above left (thousands of merchants), then a CI-sized
      // workspace each time (10 merchants with 10 checkouts each).
      const expires_at = weekFromNow();
      const fill = async () => {
        for (let m = 0; m < 10; m++) {
          const headers = await merchantHeaders(base, `R${m}`);
          await Promise.all(
            Array.from({ length: 10 }, (_, i) =>
              api(base, 'POST', '/v1/checkouts', {
                headers,
                body: { title: `R${i}`, amount: 1000, expires_at },
              }),
            ),
          );
        }
      };
      const resets = [];
      for (let i = 0; i < config.resets; i++) {
        if (i > 0) await fill();
        resets.push(...(await timeEach(1, () => api(base, 'POST', '/sandbox/reset'))));
        await limitsOff(base);
      }
      const rtt = median(await timeEach(50, () => fetch(`${bare.url}/`).then((r) => r.text())));
      const resetMs = median(resets.slice(1));
      const ratio = median(ratios);
      const merchantCpu = median(merchantRuns.map((r) => r.server_cpu_us_per_req));
      const resetRatio = resetMs / rtt;
      return {
        figures: [
          figure({
            name: 'merchants/s (POST /sandbox/merchants: 10 static addresses + a key)',
            measured: `${fmt(median(merchantRuns.map((r) => r.rps)))}/s, p99 ${fmt(median(merchantRuns.map((r) => r.latency_ms.p99)))} ms, ${fmt(merchantCpu)} µs CPU/merchant`,
            baseline: `bare Fastify GET /: ${fmt(median(bareRuns))} req/s`,
            ratio,
            target: TARGETS.merchants.text,
            pass: TARGETS.merchants.pass(ratio, merchantCpu),
            data: { ratios, cpu_us_per_merchant: merchantCpu, merchantRuns, bareRuns },
          }),
          figure({
            name: 'POST /sandbox/reset (10 merchants × 10 checkouts)',
            measured: `${fmt(resetMs, 2)} ms (median of ${resets.length - 1}; first, after the load: ${fmt(resets[0], 1)} ms)`,
            baseline: `bare Fastify round trip: ${fmt(rtt, 2)} ms`,
            ratio: resetRatio,
            target: `<= ${TARGETS.reset.toFixed(2)}`,
            pass: resetRatio <= TARGETS.reset,
            data: { resets, rtt },
          }),
        ],
      };
    });
  },
};
