import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

// A long-running CLI child (listen, logs tail) for the CLI tests.
const LINE_TIMEOUT_MS = 8_000;
const EXIT_TIMEOUT_MS = 8_000;

/** A long-running command (listen, logs tail): its lines as they come, and a way to wait for one. */
export class Streaming {
  readonly lines: string[] = [];
  stderr = '';
  private waiters: { test: () => boolean; resolve: () => void }[] = [];
  readonly exit: Promise<{ code: number | null; signal: string | null }>;

  constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      this.lines.push(line);
      this.check();
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
      this.check();
    });
    this.exit = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        resolve({ code, signal });
        this.check();
      });
    });
  }

  /** Resolves with the first stdout line matching `pattern` (rejects after LINE_TIMEOUT_MS). */
  line(pattern: RegExp, ms = LINE_TIMEOUT_MS): Promise<string> {
    const find = () => this.lines.find((l) => pattern.test(l));
    return this.until(() => find() !== undefined, `a line matching ${pattern}`, ms).then(() => find()!);
  }

  stderrMatches(pattern: RegExp, ms = LINE_TIMEOUT_MS): Promise<void> {
    return this.until(() => pattern.test(this.stderr), `stderr matching ${pattern}`, ms);
  }

  async stop(signal: NodeJS.Signals, ms = EXIT_TIMEOUT_MS) {
    this.child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`still running ${ms} ms after ${signal}`)), ms);
    });
    try {
      return await Promise.race([this.exit, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private until(test: () => boolean, what: string, ms: number): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new Error(`no ${what} within ${ms} ms\nstdout: ${this.lines.join('\n')}\nstderr: ${this.stderr}`),
        );
      }, ms);
      this.waiters.push({
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  private check(): void {
    this.waiters = this.waiters.filter((w) => {
      if (!w.test()) return true;
      w.resolve();
      return false;
    });
  }
}
