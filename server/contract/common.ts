import { type Static, type TSchema, Type } from 'typebox';

/** A string from a fixed set: `enum`, not anyOf of consts (one check; cheap to serialize). */
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

const PRIMITIVES = new Set(['string', 'integer', 'number', 'boolean', 'object']);

/**
 * `T | null`. For primitives it is `type: [t, 'null']` rather than anyOf: the same for validation
 * and OpenAPI, and far cheaper for the response serializer, which tries anyOf branches one by one.
 */
export const Nullable = <T extends TSchema>(schema: T) => {
  const { type, enum: values } = schema as { type?: unknown; enum?: unknown[] };
  if (typeof type !== 'string' || !PRIMITIVES.has(type))
    return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()]));
  // An enum lists its values: null has to be one of them too, or `type` alone would not admit it.
  return Type.Unsafe<Static<T> | null>({
    ...schema,
    type: [type, 'null'],
    ...(values ? { enum: [...values, null] } : {}),
  });
};

/**
 * The same schema with a description of its own, for the OpenAPI document and the MCP tools: the
 * shape, and TypeBox's own (hidden) markers, stay the schema's.
 */
export function described<T extends TSchema>(schema: T, description: string): T {
  return Object.create(Object.getPrototypeOf(schema), {
    ...Object.getOwnPropertyDescriptors(schema),
    description: { value: description, enumerable: true, writable: true, configurable: true },
  }) as T;
}

export const ErrorBody = Type.Object({ error: Type.String() }, { $id: 'Error' });

export const Null = Type.Null();
export const Uuid = Type.String({ format: 'uuid' });
export const Timestamp = Type.String({ format: 'date-time' });
/** Integer amount in minor units (6dp for USDC/USDT). Never a float. */
export const Amount = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
export const PositiveAmount = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

export const IdParams = Type.Object({ id: Uuid });
export type IdParams = Static<typeof IdParams>;

export const EnvName = StringEnum(['test', 'production']);
export type EnvName = Static<typeof EnvName>;
/** The two environments: the test address and the simulated production address. */
export type Env = EnvName;
export const ENVS: readonly Env[] = ['test', 'production'];
export const EnvQuery = Type.Object({
  env: Type.Optional(described(EnvName, 'the environment: test (default) or production')),
});

/** Lists are plain arrays, newest first, with keyset pagination (PRODUCT.md, Lists). */
export const ListQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'at most this many, newest first' }),
  ),
  starting_after: Type.Optional(
    described(Uuid, 'the next page: the items after this id (the last of the page before)'),
  ),
});
export type ListQuery = Static<typeof ListQuery>;

/** A merchant's list in one environment, newest first (deposits, payouts, the ledger). */
export const EnvLimitQuery = Type.Object({
  ...EnvQuery.properties,
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'at most this many, newest first' }),
  ),
});
/** A merchant's list in one environment, with keyset pagination (the merchant views). */
export const EnvListQuery = Type.Object({ ...EnvQuery.properties, ...ListQuery.properties });
/** An answer with nothing to say but success. */
export const EmptyObject = Type.Object({});

/**
 * The body of an operation that takes none: a POST, PUT or PATCH may still send `{}` (many clients
 * do), or nothing. Any fields are ignored.
 */
export const NoBody = Type.Object(
  {},
  { description: 'Nothing to send: no body, or {} (fields are ignored).' },
);

/** Standard error responses, so they appear in the OpenAPI document. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  422: ErrorBody,
  429: ErrorBody,
} as const;
