// Paths the dashboard shows but never calls. The API it calls goes through the operation table
// (`call` in api/client.ts); what is here is not in that table:
// - links to documents the sandbox serves on hidden routes (no operationId, not in the OpenAPI
//   document itself): the API reference page and the OpenAPI document. These are the only API paths
//   the renderer spells itself, and this the only file allowed to (the path guard allows exactly it);
// - example paths the forms show as placeholders, taken from the operation table.
import { operations } from '../../server/contract/call.js';

/** The API reference page, from the origin of an environment's listener. */
export const API_REFERENCE_PATH = '/docs';
/** The OpenAPI document, from the origin of an environment's listener. */
export const OPENAPI_DOCUMENT_PATH = '/sandbox/openapi.json';

/** Placeholders of the path fields: a resource to expect (Scenarios), a request to fault (Faults). */
export const EXAMPLE_PATHS = {
  /** `/sandbox/checkouts/<id>`: a control-API resource the recording can read back */
  resource: operations.sandboxGetCheckout.path.replace('{id}', '<id>'),
  /** `/v1/checkouts/{id}`: a route pattern of the API a fault rule matches */
  faultedRoute: operations.getCheckout.path,
} as const;
