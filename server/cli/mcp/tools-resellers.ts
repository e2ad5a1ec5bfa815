import { Type } from 'typebox';
import { EnvQuery } from '../../contract/common.js';
import {
  CreateConnectionBody,
  ProvisionBody,
  type ProvisionResult,
  ResellerConnection,
  type ResellerConnections,
  ResellerIncome,
  UpdateConnectionBody,
} from '../../contract/resellers.js';
import { count, idArg, list, money, operationTool, type Tool } from './tool.js';

// Resellers: a merchant that earns a commission on the payments of merchants connected to it
// (connections made, changed, revoked, deleted), merchants it provisions, and what it earned.

const ConnectionBrief = Type.Pick(ResellerConnection, [
  'id',
  'reseller_id',
  'merchant_id',
  'status',
  'rate',
  'min_fee',
  'max_fee',
]);
const connectionWords = (c: ResellerConnection) =>
  `Connection ${c.id}: reseller ${c.reseller_id} earns ${c.rate} bps on merchant ${c.merchant_id} (${c.status}).`;

export const resellerTools: Tool[] = [
  operationTool<ResellerConnection>({
    name: 'reseller_connection_create',
    title: 'Connect a reseller to a merchant',
    description:
      "Make a merchant (`reseller_id`) earn a commission on another merchant's payments (`merchant_id`): `rate` in basis points, optional min and max fee per payment.",
    operationId: 'sandboxCreateMerchantResellerConnection',
    pathArg: 'reseller_id',
    query: EnvQuery,
    body: CreateConnectionBody,
    output: ConnectionBrief,
    words: connectionWords,
  }),
  operationTool<ResellerConnections>({
    name: 'reseller_connections_list',
    title: "A merchant's reseller connections",
    description:
      "A merchant's reseller connections, both ways: outgoing (it is the reseller) and incoming (a reseller earns on it), every status, newest first.",
    operationId: 'sandboxListMerchantResellerConnections',
    pathArg: 'merchant_id',
    query: EnvQuery,
    output: Type.Object({
      outgoing: Type.Array(ConnectionBrief, { description: 'the merchant is the reseller' }),
      incoming: Type.Array(ConnectionBrief, { description: 'a reseller earns on the merchant' }),
    }),
    words: (r) =>
      `${count(r.outgoing.length, 'outgoing connection')}, ${count(r.incoming.length, 'incoming connection')}.`,
  }),
  operationTool<ResellerConnection>({
    name: 'reseller_connection_update',
    title: "Change a reseller connection's terms",
    description: "Change a connection's rate (required) and its fee caps (left out: unchanged; null: none).",
    operationId: 'sandboxUpdateResellerConnection',
    pathArg: 'connection_id',
    body: UpdateConnectionBody,
    output: ConnectionBrief,
    words: connectionWords,
  }),
  operationTool<ResellerConnection>({
    name: 'reseller_connection_revoke',
    title: 'Revoke a reseller connection',
    description:
      'Revoke a connection: the reseller earns nothing on payments from now on (the connection stays, revoked).',
    operationId: 'sandboxRevokeResellerConnection',
    pathArg: 'connection_id',
    destructive: true,
    idempotent: true,
    output: ConnectionBrief,
    words: connectionWords,
  }),
  operationTool<undefined>({
    name: 'reseller_connection_delete',
    title: 'Delete a reseller connection',
    description:
      'Delete a reseller connection for good (reseller_connection_revoke keeps it, revoked, in the lists).',
    operationId: 'sandboxDeleteResellerConnection',
    pathArg: 'connection_id',
    output: Type.Object({ deleted: idArg('connection_id', 'the connection deleted') }),
    words: (_, args) => `Deleted connection ${String(args.connection_id)}.`,
    shape: (_, args) => ({ deleted: args.connection_id }),
  }),
  operationTool<ProvisionResult>({
    name: 'merchant_provision',
    title: 'Provision a merchant as a reseller',
    description:
      'The reseller signs up a new merchant with its owner login, connected to it at `rate` basis points: answers the new merchant and the connection. Production only, as in the service: pass env "production".',
    operationId: 'sandboxProvisionMerchant',
    pathArg: 'reseller_id',
    query: EnvQuery,
    body: ProvisionBody,
    output: Type.Object({
      merchant: Type.Object({
        id: idArg('merchant_id', 'the merchant provisioned'),
        name: Type.String(),
        kyb_status: Type.String(),
      }),
      connection_id: idArg('connection_id', 'its connection to the reseller'),
    }),
    words: (r) =>
      `Provisioned merchant ${r.merchant.name} (${r.merchant.id}), connection ${r.connection_id}.`,
  }),
  operationTool<ResellerIncome[]>({
    name: 'reseller_income',
    title: "A reseller's income",
    description:
      'What the reseller earned, per currency: released (earned) and still in the 7-day hold (pending), in minor units.',
    operationId: 'sandboxGetMerchantResellerIncome',
    pathArg: 'reseller_id',
    query: EnvQuery,
    output: list(ResellerIncome, 'one per currency'),
    words: (items) =>
      items.length
        ? items.map((i) => `${money(i.earned, i.currency)} earned, ${i.pending} pending`).join('; ')
        : 'Nothing earned yet.',
  }),
];
