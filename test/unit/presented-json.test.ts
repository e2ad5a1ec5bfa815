import Fastify from 'fastify';
import { Type } from 'typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonBodies } from '../../server/http/plugins/json-bodies.js';
import { hooksOf, takesBody } from '../../server/http/plugins/route-hooks.js';
import { sendPresented } from '../../server/http/presented-json.js';

const Thing = Type.Object({ id: Type.String(), n: Type.Integer(), note: Type.Optional(Type.String()) });
const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

describe('sendPresented', () => {
  it('answers exactly what the route serializer answers (extra fields dropped, same content type), once per object', async () => {
    const app = Fastify();
    apps.push(app);
    let current: Record<string, unknown> = { id: 'a', n: 1, secret: 'never sent' };
    app.get('/plain', { schema: { response: { 200: Thing } } }, async () => current);
    app.get('/presented', { schema: { response: { 200: Thing } } }, (_request, reply) => {
      sendPresented(reply, current);
    });
    const both = async () => Promise.all(['/plain', '/presented'].map((url) => app.inject({ url })));
    const [plain, presented] = await both();
    expect(presented!.body).toBe(plain!.body);
    expect(presented!.body).toBe('{"id":"a","n":1}');
    expect(presented!.headers['content-type']).toBe(plain!.headers['content-type']);
    // A presenter replaces the object when the resource changes: the new one is written anew.
    current = { id: 'a', n: 2, note: 'é "quoted"' };
    const [plain2, presented2] = await both();
    expect(presented2!.body).toBe(plain2!.body);
    expect(JSON.parse(presented2!.body)).toEqual({ id: 'a', n: 2, note: 'é "quoted"' });
    // The same object again is the JSON written for it (it is never mutated by its presenter).
    const again = await app.inject({ url: '/presented' });
    expect(again.body).toBe(presented2!.body);
  });

  it('an error thrown while presenting is the route error, as from any handler', async () => {
    const app = Fastify();
    apps.push(app);
    app.get('/missing', { schema: { response: { 200: Thing } } }, (_request, reply) => {
      const value = (() => {
        throw Object.assign(new Error('Thing not found: x'), { statusCode: 404 });
      })();
      sendPresented(reply, value);
    });
    const response = await app.inject({ url: '/missing' });
    expect(response.statusCode).toBe(404);
  });
});

describe('json-bodies hooks', () => {
  it('gives body routes an empty object for no body and leaves GET routes without the hook', async () => {
    expect(takesBody('GET')).toBe(false);
    expect(takesBody(['GET', 'HEAD'])).toBe(false);
    expect(takesBody(['GET', 'POST'])).toBe(true);
    expect(hooksOf(undefined)).toEqual([]);
    const app = Fastify();
    apps.push(app);
    await app.register(jsonBodies);
    const hooks: Record<string, number> = {};
    app.addHook('onRoute', (route) => {
      hooks[`${route.method}`] = hooksOf(route.preValidation).length;
    });
    app.get('/x', async (request) => ({ body: request.body === undefined ? 'none' : request.body }));
    app.post('/x', async (request) => ({ body: request.body }));
    app.delete('/x', async (request) => ({ body: request.body }));
    await app.ready();
    expect(hooks).toMatchObject({ GET: 0, POST: 1, DELETE: 1 });
    expect((await app.inject({ url: '/x' })).json()).toEqual({ body: 'none' });
    expect((await app.inject({ method: 'POST', url: '/x' })).json()).toEqual({ body: {} });
    expect((await app.inject({ method: 'DELETE', url: '/x' })).json()).toEqual({ body: {} });
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/x',
          payload: { a: 1 },
          headers: { 'content-type': 'application/json' },
        })
      ).json(),
    ).toEqual({ body: { a: 1 } });
  });
});
