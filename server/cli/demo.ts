import type { Sandbox, Urls } from '../sandbox.js';

/**
 * `serve --demo`: the built-in demo scenario, built once per database file. A kv entry remembers
 * the demo's merchants; a later `--demo` on the same file finds them and builds nothing (no second
 * set of merchants, no clock moved again). `--fresh` resets the workspace and builds it anew.
 */
const MARKER = 'demo';
/** The demo's history: it starts this far back on the sandbox clock and ends about now. */
const SPAN_MS = 30 * 24 * 3600_000;

interface DemoMarker {
  merchants: string[];
  built_at: string;
}

type DemoUrls = Pick<Urls, 'test' | 'production'>;

export interface DemoOptions {
  /** reset the workspace and build the demo anew rather than reuse the one in the file */
  fresh: boolean;
  /** sent as X-SVC-Control-Token when the sandbox requires one */
  controlToken?: string | undefined;
}

async function merchantIds(urls: DemoUrls, headers: Record<string, string>): Promise<string[]> {
  const response = await fetch(`${urls.test}/sandbox/merchants?limit=1000`, { headers });
  if (!response.ok) throw new Error(`GET /sandbox/merchants: ${response.status}`);
  return ((await response.json()) as { id: string }[]).map((m) => m.id);
}

export async function buildDemo(
  sandbox: Sandbox,
  urls: DemoUrls,
  { fresh, controlToken }: DemoOptions,
): Promise<void> {
  // Read at each use: a reset (--fresh) mounts a new database and context under the same sandbox.
  const kv = () => sandbox.ctx.repos.kv;
  const headers: Record<string, string> =
    controlToken === undefined ? {} : { 'x-svc-control-token': controlToken };
  try {
    const marker = kv().get<DemoMarker>(MARKER);
    if (marker && !fresh) {
      const present = new Set(await merchantIds(urls, headers));
      if (marker.merchants.length > 0 && marker.merchants.every((id) => present.has(id))) {
        process.stdout.write(
          `svc-sandbox demo ready: the demo built ${marker.built_at} (--demo --fresh rebuilds it)\n`,
        );
        return;
      }
    }
    if (fresh) {
      const reset = await fetch(`${urls.test}/sandbox/reset`, { method: 'POST', headers });
      if (!reset.ok) throw new Error(`POST /sandbox/reset: ${reset.status}`);
    }
    const before = await merchantIds(urls, headers);
    // An empty workspace gets a month of history; one with data of its own keeps its clock.
    if (before.length === 0) {
      sandbox.ctx.clock.restart(-SPAN_MS);
      sandbox.ctx.scheduler.wake();
    }
    const [{ libraryText }, { parseScenario }, { runScenario }] = await Promise.all([
      import('../scenarios/library.js'),
      import('../scenarios/parse.js'),
      import('../scenarios/run.js'),
    ]);
    const parsed = parseScenario(libraryText('demo'));
    if (!parsed.ok) throw new Error(`the demo scenario is invalid: ${parsed.errors[0]?.message}`);
    const run = await runScenario({ urls, controlToken }, parsed.scenario);
    if (!run.ok) {
      const failed = run.steps.filter((s) => !s.ok);
      throw new Error(failed.map((s) => `step ${s.index} ${s.label}: ${s.error}`).join('; '));
    }
    const existing = new Set(before);
    const merchants = (await merchantIds(urls, headers)).filter((id) => !existing.has(id));
    kv().set(MARKER, { merchants, built_at: sandbox.ctx.clock.nowIso() } satisfies DemoMarker);
    process.stdout.write(
      `svc-sandbox demo ready: ${run.steps.length} steps (svc-sandbox trigger --list for more)\n`,
    );
  } catch (error) {
    process.stderr.write(`svc-sandbox: the demo did not complete: ${(error as Error).message}\n`);
  }
}
