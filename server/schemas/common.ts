import { type Static, type TSchema, Type } from 'typebox';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ErrorBody = Type.Object({ error: Type.String() }, { $id: 'Error' });

export const Null = Type.Null();
export const Uuid = Type.String({ format: 'uuid' });
export const Timestamp = Type.String({ format: 'date-time' });
/** Integer amount in minor units (6dp for USDC/USDT). Never a float. */
export const Amount = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
export const PositiveAmount = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

export const IdParams = Type.Object({ id: Uuid });
export type IdParams = Static<typeof IdParams>;

export const EnvName = Type.Union([Type.Literal('test'), Type.Literal('production')]);
export type EnvName = Static<typeof EnvName>;
export const EnvQuery = Type.Object({ env: Type.Optional(EnvName) });

/** Lists are plain arrays, newest first, with keyset pagination (PRODUCT.md, Lists). */
export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  starting_after: Type.Optional(Uuid),
});
export type ListQuery = Static<typeof ListQuery>;

/** Standard error responses, so they appear in the OpenAPI document. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  422: ErrorBody,
  429: ErrorBody,
} as const;
