import type { Checkpoint, Workspace } from '../contract/workspaces.js';
import type { Urls } from '../sandbox.js';
import { durationSeconds, type ScenarioStep } from '../scenarios/format.js';
import { listOf, SandboxClient } from './client.js';

/**
 * `serve --demo`: the built-in demo scenario, built once in a workspace of its own named "Demo".
 * Once the build has finished it saves the checkpoint "demo": a later `--demo` finds the workspace
 * with that checkpoint and builds nothing (no second set of merchants, no clock moved again), and
 * after a pitch `checkpoint restore demo --workspace Demo` brings the untouched demo back, its
 * history moved to end at the real current time (the checkpoint is saved `restore_at: 'now'`). A Demo
 * workspace without the checkpoint is a build that did not finish: it is replaced. `--fresh`
 * deletes the workspace and builds it anew. The other workspaces are never touched.
 */
export const DEMO_WORKSPACE = 'Demo';
export const DEMO_CHECKPOINT = 'demo';
/**
 * How far the demo's clock starts back: as far as its steps move it forward, so the history ends at
 * the real current time when the build finishes (the clock follows real time while it runs).
 */
export function demoSpanMs(steps: readonly ScenarioStep[]): number {
  let seconds = 0;
  for (const step of steps) {
    if (step.kind === 'clock' && typeof step.clock === 'object')
      seconds += durationSeconds(step.clock.advance) ?? 0;
  }
  return seconds * 1000;
}

type DemoUrls = Pick<Urls, 'test' | 'production'>;

export interface DemoOptions {
  /** delete the Demo workspace and build the demo anew rather than reuse it */
  fresh: boolean;
  /** sent as X-SVC-Control-Token when the sandbox requires one */
  controlToken?: string | undefined;
  /** the sandbox's seed: the Demo workspace's ids, keys and addresses follow it too */
  seed?: string | undefined;
  /** where progress and the outcome are written (stdout, stderr) */
  print?: (line: string) => void;
  printError?: (line: string) => void;
}

export interface DemoResult {
  workspace: Workspace;
  /** false when an earlier build was reused */
  built: boolean;
}

/**
 * Builds (or finds) the demo over the sandbox's own addresses, like any client. Resolves with the
 * Demo workspace, or undefined when the build failed (said on stderr; the sandbox keeps serving).
 */
export async function buildDemo(urls: DemoUrls, options: DemoOptions): Promise<DemoResult | undefined> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const printError = options.printError ?? ((line: string) => process.stderr.write(`${line}\n`));
  // The client reads the control token from the environment; the sandbox's own is passed here.
  const sandbox = new DemoClient(urls.test, options.controlToken);
  let demo: Workspace | undefined;
  try {
    const existing = (await sandbox.workspaces()).find(
      (w) => w.name.toLowerCase() === DEMO_WORKSPACE.toLowerCase(),
    );
    if (existing && !options.fresh) {
      const checkpoints = listOf<Checkpoint>(await sandbox.in(existing.id).call('sandboxListCheckpoints'));
      const saved = checkpoints.find((c) => c.name === DEMO_CHECKPOINT);
      if (saved) {
        print(
          `svc-sandbox demo ready in workspace ${existing.name} (${existing.id}): the demo built ${saved.created_at} (--demo --fresh rebuilds it)`,
        );
        return { workspace: existing, built: false };
      }
    }
    if (existing) await sandbox.call('sandboxDeleteWorkspace', { params: { id: existing.id } });
    const [{ libraryText }, { parseScenario }, { runScenario }] = await Promise.all([
      import('../scenarios/library.js'),
      import('../scenarios/parse.js'),
      import('../scenarios/run.js'),
    ]);
    const parsed = parseScenario(libraryText('demo'));
    if (!parsed.ok) throw new Error(`the demo scenario is invalid: ${parsed.errors[0]?.message}`);
    demo = await sandbox.call('sandboxCreateWorkspace', {
      body: {
        name: DEMO_WORKSPACE,
        ...(options.seed === undefined ? {} : { seed: options.seed }),
        // Wall-clock time is right here: the demo's history should end when it is shown.
        clock: { start: new Date(Date.now() - demoSpanMs(parsed.scenario.steps)).toISOString() },
      },
    });
    const run = await runScenario(
      { urls, controlToken: options.controlToken, workspace: demo.id },
      parsed.scenario,
    );
    if (!run.ok) {
      const failed = run.steps.filter((s) => !s.ok);
      throw new Error(failed.map((s) => `step ${s.index} ${s.label}: ${s.error}`).join('; '));
    }
    // Restored after a pitch, however much later, the demo's history ends at the real current time
    // again (every stored time moved by as much), as it did when it was built.
    await sandbox
      .in(demo.id)
      .call('sandboxSaveCheckpoint', { body: { name: DEMO_CHECKPOINT, restore_at: 'now' } });
    const built = await sandbox.findWorkspace(demo.id);
    print(
      `svc-sandbox demo ready in workspace ${built.name} (${built.id}): ${run.steps.length} steps (svc-sandbox trigger --list for more)`,
    );
    return { workspace: built, built: true };
  } catch (error) {
    printError(
      `svc-sandbox: the demo did not complete: ${(error as Error).message}${demo ? ` (workspace ${demo.id} holds what was built; the next --demo replaces it)` : ''}`,
    );
    return undefined;
  }
}

/** The CLI's client with the sandbox's own control token (serve knows it; the env may not hold it). */
class DemoClient extends SandboxClient {
  constructor(
    baseUrl: string,
    private readonly token: string | undefined,
    workspace?: string,
  ) {
    super(baseUrl, workspace);
  }

  override in(workspace: string | undefined): DemoClient {
    return new DemoClient(this.baseUrl, this.token, workspace);
  }

  override request<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    return super.request<T>(method, path, body, {
      ...(this.token === undefined ? {} : { 'x-svc-control-token': this.token }),
      ...headers,
    });
  }
}
