import { randomUUID } from 'node:crypto';
import type { Env } from '../contract/common.js';
import type { RunChanges } from '../contract/scenario-library.js';
import type { ScenarioProgress, ScenarioRun } from '../contract/scenarios.js';
import { DEFAULT_WORKSPACE_ID } from '../contract/workspaces.js';
import { AppError, ConflictError } from '../errors.js';
import { type Scenario, type ScenarioJsonSchemaDocument, scenarioJsonSchema } from './format.js';
import { parseScenario, type ScenarioError } from './parse.js';
import { runScenario, type ScenarioTarget } from './run.js';

/** 400: the scenario text is not a valid file; the message lists every problem with its line. */
export class ScenarioInvalidError extends AppError {
  constructor(readonly errors: ScenarioError[]) {
    super(
      400,
      `invalid scenario: ${errors.map((e) => `line ${e.line}: ${e.path}: ${e.message}`).join('; ')}`,
    );
  }
}

export interface ScenarioServiceDeps {
  /** this sandbox's addresses (known once it listens) */
  urls: () => { test: string; production: string };
  /** the sandbox's control token, sent on the run's control calls (serve --control-token) */
  controlToken?: string | undefined;
}

type ProgressListener = (progress: ScenarioProgress) => void;

export interface ScenarioRunOptions {
  env?: Env;
  /** the workspace to run in (the id of the request's): every control call of the run names it */
  workspace?: string | undefined;
  /** reuse merchants of the same name (a trigger run again makes none twice) */
  reuseMerchants?: boolean;
}

/**
 * Runs scenarios against this very sandbox, over its own HTTP addresses (as an integration
 * would), and tells listeners (the event stream) about each finished step.
 */
export class ScenarioService {
  private readonly listeners = new Map<ProgressListener, string | undefined>();

  constructor(private readonly deps: ScenarioServiceDeps) {}

  schema(): ScenarioJsonSchemaDocument {
    return scenarioJsonSchema();
  }

  /**
   * Every finished step of every run in `workspace` (undefined: the default one); returns the
   * unsubscribe function. A stream of one workspace hears nothing of another's runs.
   */
  on(listener: ProgressListener, workspace?: string): () => void {
    this.listeners.set(listener, workspace ?? DEFAULT_WORKSPACE_ID);
    return () => this.listeners.delete(listener);
  }

  /** Parses and runs scenario text; throws ScenarioInvalidError for an invalid file. */
  runText(text: string, options: ScenarioRunOptions = {}): Promise<ScenarioRun> {
    const parsed = parseScenario(text);
    if (!parsed.ok) throw new ScenarioInvalidError(parsed.errors);
    return this.run(parsed.scenario, options);
  }

  /** This sandbox as a run reaches it: its addresses and control token (409 before it listens). */
  addresses(): Omit<ScenarioTarget, 'workspace'> {
    const urls = this.deps.urls();
    if (/:0$/.test(urls.test))
      throw new ConflictError('the sandbox is not listening yet: scenarios run over its addresses');
    return { urls, controlToken: this.deps.controlToken };
  }

  async run(
    scenario: Scenario,
    options: ScenarioRunOptions = {},
  ): Promise<ScenarioRun & { changes?: RunChanges }> {
    // Not from the sandbox's id generator: a run id is no sandbox state, and taking one from a
    // seeded generator would shift every id the scenario itself then makes.
    const runId = randomUUID();
    const { workspace } = options;
    const heardIn = workspace ?? DEFAULT_WORKSPACE_ID;
    return runScenario({ ...this.addresses(), workspace }, scenario, {
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.reuseMerchants ? { reuseMerchants: true } : {}),
      onStep: (step) => {
        // The runner stops after a failed action, so the last step is known as it finishes.
        const done = step.index === scenario.steps.length || (!step.ok && step.kind !== 'expect');
        const progress: ScenarioProgress = { run_id: runId, name: scenario.name, step, done };
        for (const [listener, heard] of this.listeners) {
          if (heard !== heardIn) continue;
          try {
            listener(progress);
          } catch {
            // a listener's failure (a closed stream) is not the run's
          }
        }
      },
    });
  }
}
