// The webhook baseline: a bare undici POST loop (no database, no signing, no scheduling) to the
// bench's receiver, in its own process as the sandbox is. Receives { url, count, concurrency, body }
// over IPC, sends `count` POSTs with `concurrency` in flight, replies { ms, cpu_us } (its CPU over the loop, µs).
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';

process.once('message', async ({ url, count, concurrency, body }) => {
  try {
    const agent = new Agent({ keepAliveTimeout: 30_000, connections: 128, pipelining: 1 });
    let next = 0;
    const started = performance.now();
    const cpu = process.cpuUsage();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          const i = next++;
          const response = await request(`${url}?bare=${i}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: body.replace('{{i}}', String(i)),
            dispatcher: agent,
          });
          await response.body.dump();
          if (response.statusCode !== 200) throw new Error(`receiver answered ${response.statusCode}`);
        }
      }),
    );
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    await agent.close();
    process.send({ ms, cpu_us: used.user + used.system });
  } catch (error) {
    process.send({ error: error instanceof Error ? error.message : String(error) });
  }
});
process.once('disconnect', () => process.exit(0));
