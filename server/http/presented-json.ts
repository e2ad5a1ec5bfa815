import type { FastifyReply } from 'fastify';

type Serialize = (data: unknown) => string;

/** Per route serializer: the JSON of each object it has written. */
const written = new WeakMap<Serialize, WeakMap<object, string>>();

/**
 * Answers 200 with `value` as the route's own serializer writes it, once per object. For values a
 * presenter hands out unchanged until their row changes (it replaces the object then, never
 * mutates it): a client polling a resource that has not moved costs no serialization. The JSON is
 * exactly what the route would have sent; it is remembered only as long as the object lives.
 */
export function sendPresented(reply: FastifyReply, value: object): void {
  const serialize = reply.getSerializationFunction('200') as Serialize | undefined;
  if (serialize === undefined) {
    reply.send(value);
    return;
  }
  let memo = written.get(serialize);
  if (memo === undefined) {
    memo = new WeakMap();
    written.set(serialize, memo);
  }
  let json = memo.get(value);
  if (json === undefined) {
    json = serialize(value);
    memo.set(value, json);
  }
  reply.type('application/json; charset=utf-8').send(json);
}
