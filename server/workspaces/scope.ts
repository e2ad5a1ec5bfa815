import { AsyncLocalStorage } from 'node:async_hooks';
import type { SandboxContext } from '../context.js';
import type { WorkspaceTransfer } from '../workspace-transfer/service.js';

/** What the HTTP edge needs of a workspace while a request runs in it. */
export interface Scope {
  readonly id: string;
  /** the path prefix of its own addresses ('' for the default workspace) */
  readonly prefix: string;
  /** the workspace's current context (a restore or reset replaces it) */
  readonly ctx: SandboxContext;
  readonly transfer: WorkspaceTransfer;
}

const current = new AsyncLocalStorage<Scope>();

/** Runs `fn` (and everything it starts) in the workspace `scope`. */
export function enterScope<T>(scope: Scope, fn: () => T): T {
  return current.run(scope, fn);
}

/**
 * Where a request runs without a scope of its own: the default workspace, while the sandbox has
 * never held another (entering a scope has a cost on every request, paid only once there is a
 * choice), and `undefined` once it has.
 */
export type Unscoped = () => Scope | undefined;

/** The workspace the running request acts in. Outside a request this is a bug, and says so. */
export function currentScope(unscoped?: Unscoped): Scope {
  const scope = current.getStore() ?? unscoped?.();
  if (scope === undefined) throw new Error('no workspace: a scoped service was used outside a request');
  return scope;
}

/**
 * A stand-in for one service of "the request's workspace": every property read goes to that
 * workspace's own instance at the moment of the call. The route plugins are built once per listener
 * and given these, so a route is written against one service and serves every workspace; the
 * scope itself is entered once per request (server/http/plugins/workspace-scope.ts).
 */
export function scoped<T extends object>(pick: (scope: Scope) => T, unscoped?: Unscoped): T {
  // Methods are bound to their own instance (classes keep private state), once per instance.
  const bound = new WeakMap<object, Map<PropertyKey, unknown>>();
  return new Proxy({} as T, {
    get(_target, key) {
      const target = pick(currentScope(unscoped));
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      let methods = bound.get(target);
      if (methods === undefined) {
        methods = new Map();
        bound.set(target, methods);
      }
      let method = methods.get(key);
      if (method === undefined) {
        method = (value as (...args: unknown[]) => unknown).bind(target);
        methods.set(key, method);
      }
      return method;
    },
    has(_target, key) {
      return Reflect.has(pick(currentScope(unscoped)), key);
    },
  });
}

/**
 * The context as the HTTP edge sees it: each service (`scopedContext().checkouts`) stands for the
 * request's workspace's own, as `scoped` describes.
 */
export function scopedContext(unscoped?: Unscoped): SandboxContext {
  const services = new Map<PropertyKey, unknown>();
  return new Proxy({} as SandboxContext, {
    get(_target, key) {
      let service = services.get(key);
      if (service === undefined) {
        service = scoped((scope) => Reflect.get(scope.ctx, key) as object, unscoped);
        services.set(key, service);
      }
      return service;
    },
  });
}
