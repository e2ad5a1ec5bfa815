/** The oldest supported Node as [major, minor, patch], from package.json's `engines.node` (or `range`). */
export function oldestNode(range?: string): [number, number, number];
/** Why this Node (or `version`) cannot run svc-sandbox, or undefined when it can. */
export function unsupportedNode(version?: string, range?: string): string | undefined;
/** Exits 1 with the reason on standard error when this Node cannot run svc-sandbox. */
export function requireSupportedNode(): void;
