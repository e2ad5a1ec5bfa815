import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';
import type { Compile } from 'typebox/compile';
import { lazy } from '../runtime/lazy-require.js';

const typeboxCompile = lazy<{ Compile: typeof Compile }>('typebox/compile');

type Json = Record<string, unknown>;

/** The JSON types a property schema admits (its `type`, or those of its anyOf members). */
function typesOf(schema: unknown): Set<string> {
  const types = new Set<string>();
  const visit = (s: unknown) => {
    if (!s || typeof s !== 'object') return;
    const { type, anyOf } = s as { type?: unknown; anyOf?: unknown };
    if (typeof type === 'string') types.add(type);
    if (Array.isArray(anyOf)) anyOf.forEach(visit);
  };
  visit(schema);
  return types;
}

const NUMERIC = /^-?\d+(\.\d+)?$/;

/** What a property's text may become: a number, a boolean (or both, for an anyOf). */
interface Scalar {
  key: string;
  number: boolean;
  boolean: boolean;
}

/** The properties of an object schema whose text is converted (worked out once per schema). */
function scalarsOf(schema: TSchema): Scalar[] {
  const properties = ((schema as { properties?: Json }).properties ?? {}) as Json;
  const scalars: Scalar[] = [];
  for (const [key, property] of Object.entries(properties)) {
    const types = typesOf(property);
    const number = types.has('integer') || types.has('number');
    if (number || types.has('boolean')) scalars.push({ key, number, boolean: types.has('boolean') });
  }
  return scalars;
}

/**
 * Query strings and path params arrive as text: numbers and booleans are converted exactly
 * (`Number`, never truncation), so `limit=1.5` stays 1.5 and fails an integer schema with a 422.
 * A value with nothing to convert (an id in the path) is checked as it is, not copied.
 */
function convertScalars(scalars: readonly Scalar[], value: unknown): unknown {
  if (scalars.length === 0 || !value || typeof value !== 'object' || Array.isArray(value)) return value;
  const input = value as Json;
  let out: Json | undefined;
  for (const { key, number, boolean } of scalars) {
    if (!Object.hasOwn(input, key)) continue;
    const raw = input[key];
    if (typeof raw !== 'string') continue;
    let converted: number | boolean;
    if (number && NUMERIC.test(raw)) converted = Number(raw);
    else if (boolean && (raw === 'true' || raw === 'false')) converted = raw === 'true';
    else continue;
    out ??= { ...input };
    out[key] = converted;
  }
  return out ?? value;
}

/** TypeBox validation: bodies are checked as sent (never coerced); other parts converted exactly. */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  // Compiled on the route's first request, not at start-up (both listeners register every route).
  let compiled: ReturnType<typeof Compile<TSchema>> | undefined;
  let scalars: Scalar[] | undefined;
  return (value: unknown) => {
    compiled ??= typeboxCompile().Compile(schema);
    scalars ??= httpPart === 'body' ? [] : scalarsOf(schema);
    const check = compiled;
    const converted = convertScalars(scalars, value);
    if (check.Check(converted)) return { value: converted };
    const errors: FastifySchemaValidationError[] = check.Errors(converted).map((e) => ({
      keyword: e.keyword,
      instancePath: e.instancePath,
      schemaPath: e.schemaPath,
      params: e.params as Record<string, unknown>,
      ...(e.message === undefined ? {} : { message: e.message }),
    }));
    return { error: errors };
  };
};
