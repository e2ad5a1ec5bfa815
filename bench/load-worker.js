// The load generator process: receives one spec over IPC, runs autocannon, sends back a summary.
// Kept apart from the bench's own process and from the server so none share an event loop.
import autocannon from 'autocannon';

function options(spec) {
  const { bodyTemplate, ...rest } = spec;
  const opts = { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false, ...rest };
  if (bodyTemplate !== undefined) {
    let seq = 0;
    opts.requests = [
      {
        method: spec.method ?? 'POST',
        path: new URL(spec.url).pathname,
        headers: spec.headers,
        setupRequest: (request) => ({ ...request, body: bodyTemplate.replaceAll('{{seq}}', String(seq++)) }),
      },
    ];
  }
  return opts;
}

function summary(result) {
  return {
    rps: result.requests.average,
    total: result.requests.total,
    duration_s: result.duration,
    latency_ms: {
      average: result.latency.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    status: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]),
    ),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    warmup_total: result.warmup?.requests.total ?? 0,
  };
}

process.once('message', async (spec) => {
  try {
    const result = await autocannon(options(spec));
    process.send({ result: summary(result) });
  } catch (error) {
    process.send({ error: error instanceof Error ? error.message : String(error) });
  }
});
// The bench went away: do not linger.
process.once('disconnect', () => process.exit(0));
