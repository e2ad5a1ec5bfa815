import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';
import type { Compile } from 'typebox/compile';
import { lazy } from '../lazy-require.js';

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

/**
 * Query strings and path params arrive as text: numbers and booleans are converted exactly
 * (`Number`, never truncation), so `limit=1.5` stays 1.5 and fails an integer schema with a 422.
 */
function convertScalars(schema: TSchema, value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const properties = ((schema as { properties?: Json }).properties ?? {}) as Json;
  const out: Json = { ...(value as Json) };
  for (const [key, raw] of Object.entries(out)) {
    if (typeof raw !== 'string') continue;
    const types = typesOf(properties[key]);
    if ((types.has('integer') || types.has('number')) && NUMERIC.test(raw)) out[key] = Number(raw);
    else if (types.has('boolean') && (raw === 'true' || raw === 'false')) out[key] = raw === 'true';
  }
  return out;
}

/** TypeBox validation: bodies are checked as sent (never coerced); other parts converted exactly. */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  // Compiled on the route's first request, not at start-up (both listeners register every route).
  let compiled: ReturnType<typeof Compile<TSchema>> | undefined;
  return (value: unknown) => {
    compiled ??= typeboxCompile().Compile(schema);
    const check = compiled;
    const converted = httpPart === 'body' ? value : convertScalars(schema, value);
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
