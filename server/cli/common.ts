import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type ParseResult, parseScenario } from '../scenarios/parse.js';

/** A bad command line: the caller prints the message and the command's usage, and exits 2. */
export class UsageError extends Error {}

/** A command that could not do its work (no sandbox, an API error): message on stderr, exit 1. */
export class CliFailure extends Error {}

export const DEFAULT_URL = 'http://127.0.0.1:4010';

/** The variable that holds a sandbox's control token, for serve and for every client command. */
export const CONTROL_TOKEN_ENV = 'SVC_SANDBOX_CONTROL_TOKEN';

/** The control token of a sandbox started with one (serve --control-token), from the environment. */
export function controlToken(): string | undefined {
  const token = process.env[CONTROL_TOKEN_ENV];
  return token === undefined || token === '' ? undefined : token;
}

/** The header that carries the control token, when there is one. */
export function controlHeaders(): Record<string, string> {
  const token = controlToken();
  return token === undefined ? {} : { 'x-svc-control-token': token };
}

/** The variable that names the workspace client commands act in, when --workspace is not given. */
export const WORKSPACE_ENV = 'SVC_SANDBOX_WORKSPACE';

/** Flags every client command takes. */
export const COMMON_OPTIONS = {
  url: { type: 'string' },
  workspace: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const COMMON_HELP = `  --url <url>       the running sandbox (default $SVC_SANDBOX_URL or ${DEFAULT_URL});
                    $SVC_SANDBOX_CONTROL_TOKEN is sent when it requires a control token
  --workspace <id|name>
                    the workspace to act in (default $SVC_SANDBOX_WORKSPACE, else the
                    default workspace); svc-sandbox workspaces list shows them
  --json            machine-readable output (JSON; one object per line for streams)
  -h, --help        show this help
`;

type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** util.parseArgs in strict mode, its errors turned into usage errors. */
export function parse(argv: string[], options: OptionSpec): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...COMMON_OPTIONS, ...options },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Parsed['values'], positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function baseUrl(values: Parsed['values']): string {
  const raw = (values.url as string | undefined) ?? process.env.SVC_SANDBOX_URL ?? DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--url must be an http(s) URL, got ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--url must be an http(s) URL, got ${raw}`);
  return raw.replace(/\/+$/, '');
}

/**
 * The workspace named by --workspace or $SVC_SANDBOX_WORKSPACE (an id or a name), or undefined
 * for the default one.
 */
export function workspaceOption(values: Parsed['values']): string | undefined {
  const flag = values.workspace as string | undefined;
  const raw = flag ?? process.env[WORKSPACE_ENV];
  if (raw === undefined || (flag === undefined && raw.trim() === '')) return undefined;
  const value = raw.trim();
  // The server's own rule for names (contract/workspaces.ts): 1-64 characters, no control characters.
  const control = [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (value === '' || value.length > 64 || control)
    throw new UsageError(
      `${flag === undefined ? WORKSPACE_ENV : '--workspace'} must be a workspace id or name (1-64 characters), got ${JSON.stringify(raw)}`,
    );
  return value;
}

export function envOption(value: string | boolean | undefined): 'test' | 'production' | undefined {
  if (value === undefined) return undefined;
  if (value !== 'test' && value !== 'production')
    throw new UsageError(`--env must be test or production, got ${String(value)}`);
  return value;
}

export function noExtra(positionals: string[], expected: number): void {
  if (positionals.length > expected)
    throw new UsageError(`unexpected argument: ${positionals.slice(expected).join(' ')}`);
}

export function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

export function json(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

/** A local wall-clock time for stream lines: HH:MM:SS.mmm. */
export function clockTime(date = new Date()): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/** A scenario file read and parsed (`run`, `parity`); a file that cannot be read is one error at its line 1. */
export function readScenarioFile(file: string): ParseResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory' : (error as Error).message;
    return { ok: false, errors: [{ line: 1, path: '(file)', message: `cannot read: ${reason}` }] };
  }
  return parseScenario(text);
}
