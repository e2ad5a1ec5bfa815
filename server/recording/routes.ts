/**
 * Which operation a method and path are (the operation table, server/contract/operations.ts), for
 * the recorder of a proxied session: it sees only URLs, and the step translation wants the route
 * pattern (`/v1/checkouts/:id`) and its parameters, as Fastify gives them inside the sandbox.
 */
import { type OperationId, operation, operations } from '../contract/call.js';

export interface MatchedRoute {
  operationId: OperationId | null;
  /** the pattern with `:name` parameters (the path itself when no operation has it) */
  route: string;
  params: Record<string, string>;
}

interface Pattern {
  id: OperationId;
  method: string;
  regex: RegExp;
  names: string[];
  route: string;
  /** fewer parameters first: `/cards/apply` before `/cards/{card_id}` */
  weight: number;
}

let patterns: Pattern[] | undefined;

function table(): Pattern[] {
  if (patterns) return patterns;
  patterns = (Object.keys(operations) as OperationId[])
    .map((id) => {
      const op = operation(id);
      const names: string[] = [];
      const source = op.path
        .split('/')
        .map((segment) => {
          const param = /^\{(\w+)\}$/.exec(segment);
          if (!param) return segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
          names.push(param[1]!);
          return '([^/]+)';
        })
        .join('/');
      return {
        id,
        method: op.method,
        regex: new RegExp(`^${source}$`),
        names,
        route: op.path.replace(/\{(\w+)\}/g, ':$1'),
        weight: names.length,
      };
    })
    .sort((a, b) => a.weight - b.weight);
  return patterns;
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** The operation of `method path` (query ignored), or the path itself as its own route. */
export function matchRoute(method: string, url: string): MatchedRoute {
  const path = url.split('?')[0] ?? '';
  for (const p of table()) {
    if (p.method !== method) continue;
    const m = p.regex.exec(path);
    if (!m) continue;
    const params = Object.fromEntries(p.names.map((name, i) => [name, decode(m[i + 1] ?? '')]));
    return { operationId: p.id, route: p.route, params };
  }
  return { operationId: null, route: path, params: {} };
}

/** The query of a URL as the recorder's exchanges carry it (a repeated name: its last value). */
export function queryOf(url: string): Record<string, string> {
  const at = url.indexOf('?');
  return at < 0 ? {} : Object.fromEntries(new URLSearchParams(url.slice(at + 1)));
}
