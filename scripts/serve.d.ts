/** Whether the server build under `dir` (the checkout by default) is missing or older than a source. */
export function buildIsStale(dir?: string): boolean;
