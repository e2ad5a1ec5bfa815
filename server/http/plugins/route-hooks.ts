import type { HTTPMethods } from 'fastify';

/** Whether a route answers a method that carries a body (anything but GET and HEAD). */
export function takesBody(method: HTTPMethods | HTTPMethods[]): boolean {
  return (Array.isArray(method) ? method : [method]).some((m) => m !== 'GET' && m !== 'HEAD');
}

/** A route's hooks of one kind as a list (the option is one function, a list, or absent). */
export function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}
