import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifySchemaCompiler } from 'fastify';
import { ErrorBody } from '../../contract/common.js';
import { BundleFile, ExportQuery, ImportResult, WorkspaceContents } from '../../contract/transfer.js';
import { MAX_BUNDLE_BYTES, type WorkspaceTransfer } from '../../workspaces/transfer.js';
import type { Use } from '../types.js';

export interface TransferControlRoutesDeps {
  transfer: Pick<WorkspaceTransfer, 'contents' | 'export' | 'import'>;
}

const OCTET = 'application/octet-stream';
const tags = ['sandbox: workspace'];

/** The import body is the bundle's bytes: it is checked by the service, never as JSON. */
const bytesOnly: FastifySchemaCompiler<unknown> = () => (value: unknown) =>
  Buffer.isBuffer(value)
    ? { value }
    : { error: new Error(`the body must be the bundle file, sent as ${OCTET}`) };

/**
 * GET /sandbox/export and POST /sandbox/import: the workspace as one bundle file (a SQLite file made
 * with `VACUUM INTO`). An import replaces the whole workspace; a refused file changes nothing.
 */
export const transferControlRoutes: FastifyPluginAsyncTypebox<{
  use: Use<TransferControlRoutesDeps>;
}> = async (app, { use }) => {
  // Bundles are bytes, and may be large: this scope alone parses octet-stream bodies, up to the cap.
  app.addContentTypeParser(
    OCTET,
    { parseAs: 'buffer', bodyLimit: MAX_BUNDLE_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.get(
    '/export',
    {
      schema: {
        operationId: 'sandboxExportWorkspace',
        summary: 'Export the workspace (or one merchant) as a bundle file',
        tags,
        querystring: ExportQuery,
        response: {
          200: { description: 'The bundle file.', content: { [OCTET]: { schema: BundleFile } } },
          404: ErrorBody,
          422: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const { bytes, meta } = await use(request).transfer.export({ merchantId: request.query.merchant_id });
      const stamp = meta.exported_at.replace(/[:.]/g, '-');
      const scope = meta.merchant_id === null ? 'workspace' : `merchant-${meta.merchant_id}`;
      return reply
        .type(OCTET)
        .header('content-disposition', `attachment; filename="svc-sandbox-${scope}-${stamp}.svcbundle"`)
        .header('cache-control', 'no-store')
        .send(bytes);
    },
  );

  app.get(
    '/contents',
    {
      schema: {
        operationId: 'sandboxGetWorkspaceContents',
        summary: 'Count what the workspace holds',
        description:
          'What an import would replace, counted as the import counts the bundle (the dashboard asks before importing).',
        tags,
        response: { 200: WorkspaceContents },
      },
    },
    async (request) => use(request).transfer.contents(),
  );

  app.post(
    '/import',
    {
      bodyLimit: MAX_BUNDLE_BYTES,
      // Replacing the workspace is its own transaction, outside any group commit.
      config: { groupCommit: false },
      validatorCompiler: bytesOnly,
      schema: {
        operationId: 'sandboxImportWorkspace',
        summary: 'Import a bundle file, replacing the workspace',
        tags,
        body: { content: { [OCTET]: { schema: BundleFile } } },
        response: { 200: ImportResult, 400: ErrorBody, 413: ErrorBody, 415: ErrorBody },
      },
    },
    async (request, reply) => {
      if (!Buffer.isBuffer(request.body))
        return reply.code(415).send({ error: `send the bundle file as ${OCTET}` });
      return use(request).transfer.import(request.body);
    },
  );
};
