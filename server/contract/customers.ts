import { type Static, Type } from 'typebox';
import { Nullable, Timestamp, Uuid } from './common.js';

export const Alpha3Country = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 3166-1 alpha-3' });
export const Email = Type.String({ format: 'email', maxLength: 254 });

export const Customer = Type.Object({
  id: Uuid,
  merchant_id: Uuid,
  name: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  country: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Customer = Static<typeof Customer>;

const customerFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.Optional(Nullable(Email)),
  phone: Type.Optional(Nullable(Type.String({ pattern: '^\\+?[0-9 ()-]{3,32}$' }))),
  country: Type.Optional(Nullable(Alpha3Country)),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
};

export const CreateCustomerBody = Type.Object(
  {
    ...customerFields,
    merchant_id: Type.Optional(Uuid),
  },
  { examples: [{ name: 'Ada Lovelace', email: 'ada@example.com', country: 'GBR' }] },
);
export type CreateCustomerBody = Static<typeof CreateCustomerBody>;

export const UpdateCustomerBody = Type.Object(customerFields);
export type UpdateCustomerBody = Static<typeof UpdateCustomerBody>;
