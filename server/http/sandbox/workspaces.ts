import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { toIso } from '../../clock.js';
import { ErrorBody, Null } from '../../contract/common.js';
import {
  Checkpoint,
  CheckpointParams,
  CreateCheckpointBody,
  CreateWorkspaceBody,
  RestoreResult,
  Workspace,
  WorkspaceParams,
} from '../../contract/workspaces.js';
import type { WorkspaceHost } from '../../workspaces/host.js';
import type { CheckpointRecord } from '../../workspaces/registry.js';
import { workspaceOf } from '../plugins/workspace-scope.js';

export interface WorkspaceHostRoutesDeps {
  host: Pick<
    WorkspaceHost,
    | 'create'
    | 'delete'
    | 'deleteCheckpoint'
    | 'list'
    | 'present'
    | 'require'
    | 'restoreCheckpoint'
    | 'saveCheckpoint'
  >;
}

const present = (checkpoint: CheckpointRecord) => ({
  name: checkpoint.name,
  at: toIso(checkpoint.at),
  created_at: checkpoint.created_at,
  size_bytes: checkpoint.size_bytes,
});

const errors = { 404: ErrorBody, 409: ErrorBody, 422: ErrorBody };

/**
 * Workspaces (isolated worlds) and their checkpoints. `/workspaces` manages them all; the
 * checkpoint routes act on the request's workspace (X-SVC-Workspace, or the default one).
 */
export const workspaceRoutes: FastifyPluginAsyncTypebox<WorkspaceHostRoutesDeps> = async (app, { host }) => {
  const tags = ['sandbox: workspaces'];
  app.post(
    '/workspaces',
    {
      config: { groupCommit: false },
      schema: {
        operationId: 'sandboxCreateWorkspace',
        summary: 'Create a workspace',
        tags,
        body: CreateWorkspaceBody,
        response: { 201: Workspace, ...errors },
      },
    },
    async (request, reply) => {
      const workspace = await host.create(request.body ?? {});
      return reply.code(201).send(host.present(workspace));
    },
  );
  app.get(
    '/workspaces',
    {
      schema: {
        operationId: 'sandboxListWorkspaces',
        summary: 'List workspaces',
        tags,
        response: { 200: Type.Array(Workspace) },
      },
    },
    async () => host.list().map((workspace) => host.present(workspace)),
  );
  app.get(
    '/workspaces/:id',
    {
      schema: {
        operationId: 'sandboxGetWorkspace',
        summary: 'Get a workspace',
        tags,
        params: WorkspaceParams,
        response: { 200: Workspace, 404: ErrorBody, 422: ErrorBody },
      },
    },
    async (request) => host.present(host.require(request.params.id)),
  );
  app.delete(
    '/workspaces/:id',
    {
      // A request may delete its own workspace.
      config: { groupCommit: false, workspace: 'replaces' },
      schema: {
        operationId: 'sandboxDeleteWorkspace',
        summary: 'Delete a workspace',
        tags,
        params: WorkspaceParams,
        response: { 204: Null, 400: ErrorBody, 404: ErrorBody, 422: ErrorBody },
      },
    },
    async (request, reply) => {
      await host.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );

  const checkpointTags = ['sandbox: checkpoints'];
  app.post(
    '/checkpoints',
    {
      config: { groupCommit: false },
      schema: {
        operationId: 'sandboxSaveCheckpoint',
        summary: 'Save a checkpoint of the workspace',
        tags: checkpointTags,
        body: CreateCheckpointBody,
        response: { 201: Checkpoint, ...errors },
      },
    },
    async (request, reply) => {
      const workspace = host.require(workspaceOf(request).id);
      const { name, restore_at } = request.body;
      return reply.code(201).send(present(host.saveCheckpoint(workspace, name, restore_at)));
    },
  );
  app.get(
    '/checkpoints',
    {
      schema: {
        operationId: 'sandboxListCheckpoints',
        summary: 'List the checkpoints of the workspace',
        tags: checkpointTags,
        response: { 200: Type.Array(Checkpoint) },
      },
    },
    async (request) => host.require(workspaceOf(request).id).record.checkpoints.map(present),
  );
  app.post(
    '/checkpoints/:name/restore',
    {
      config: { groupCommit: false, workspace: 'replaces' },
      schema: {
        operationId: 'sandboxRestoreCheckpoint',
        summary: 'Restore the workspace to a checkpoint',
        tags: checkpointTags,
        params: CheckpointParams,
        response: { 200: RestoreResult, 404: ErrorBody, 422: ErrorBody },
      },
    },
    async (request) => {
      const workspace = host.require(workspaceOf(request).id);
      const checkpoint = await host.restoreCheckpoint(workspace, request.params.name);
      return { restored: checkpoint.name, workspace: host.present(workspace) };
    },
  );
  app.delete(
    '/checkpoints/:name',
    {
      config: { groupCommit: false },
      schema: {
        operationId: 'sandboxDeleteCheckpoint',
        summary: 'Delete a checkpoint',
        tags: checkpointTags,
        params: CheckpointParams,
        response: { 204: Null, 404: ErrorBody, 422: ErrorBody },
      },
    },
    async (request, reply) => {
      host.deleteCheckpoint(host.require(workspaceOf(request).id), request.params.name);
      return reply.code(204).send(null);
    },
  );
};
