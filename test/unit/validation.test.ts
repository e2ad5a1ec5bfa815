import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { validatorCompiler } from '../../server/http/validation.js';

const compile = (schema: Parameters<typeof validatorCompiler>[0]['schema'], httpPart: string) =>
  validatorCompiler({ schema, httpPart, method: 'GET', url: '/x' }) as (value: unknown) => {
    value?: unknown;
    error?: unknown[];
  };

describe('validatorCompiler (params and query)', () => {
  const query = Type.Object({
    limit: Type.Optional(Type.Integer({ minimum: 1 })),
    paid: Type.Optional(Type.Boolean()),
    either: Type.Optional(Type.Union([Type.Integer(), Type.Boolean()])),
    name: Type.Optional(Type.String()),
  });

  it('converts numbers and booleans exactly, into a copy, and leaves text alone', () => {
    const input = { limit: '20', paid: 'false', either: 'true', name: '42' };
    const result = compile(query, 'querystring')(input);
    expect(result.value).toEqual({ limit: 20, paid: false, either: true, name: '42' });
    expect(input.limit).toBe('20');
  });

  it('never truncates: 1.5 stays 1.5 and fails an integer', () => {
    expect(compile(query, 'querystring')({ limit: '1.5' }).error).toBeDefined();
    expect(compile(query, 'querystring')({ paid: 'yes' }).error).toBeDefined();
  });

  it('checks a value with nothing to convert as it is (a path id is not copied)', () => {
    const params = Type.Object({ id: Type.String({ minLength: 1 }) });
    const input = { id: 'c0b1' };
    expect(compile(params, 'params')(input).value).toBe(input);
    const withText = { name: 'x' };
    expect(compile(query, 'querystring')(withText).value).toBe(withText);
  });

  it('never converts a body (bodies are checked as sent)', () => {
    const body = Type.Object({ amount: Type.Integer() });
    expect(compile(body, 'body')({ amount: '5' }).error).toBeDefined();
  });
});
