/** A call to the sandbox that did not answer 2xx: the status and the `{error}` it gave. */
export class SandboxRequestError extends Error {
  readonly status: number;
  readonly method: string;
  readonly url: string;
  /** the `error` field of the answer, or its raw text */
  readonly error: string;

  constructor(method: string, url: string, status: number, error: string) {
    super(`${method} ${url}: ${status} ${error}`.trim());
    this.name = 'SandboxRequestError';
    this.method = method;
    this.url = url;
    this.status = status;
    this.error = error;
  }
}

/** No sandbox answered at all (nothing listening, the connection dropped, no answer in time). */
export class SandboxUnreachableError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'SandboxUnreachableError';
  }
}

/** A request's deadline: a hung sandbox fails the test instead of hanging it. */
const TIMEOUT_MS = 30_000;

/** One JSON call over fetch; a 204 or an empty body resolves with undefined. */
export async function requestJson<T>(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const reason =
      (error as Error).name === 'TimeoutError'
        ? `no answer within ${TIMEOUT_MS / 1000} s`
        : `no sandbox answering (${(error as Error).message})`;
    throw new SandboxUnreachableError(`${method} ${url}: ${reason}`, { cause: error });
  }
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try {
      const parsed = JSON.parse(text) as { error?: unknown };
      if (typeof parsed.error === 'string') message = parsed.error;
    } catch {
      // not JSON: the raw text says what happened
    }
    throw new SandboxRequestError(method, url, response.status, message);
  }
  if (text === '') return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`${method} ${url}: the answer is not JSON (is this a sandbox?)`);
  }
}
