// Paths the dashboard shows but never calls. The API it calls goes through the operation table
// (`call` in api/client.ts); what is here is not in that table:
// - links to documents the sandbox serves on hidden routes (no operationId): the API reference
//   page and the OpenAPI document, from `documents` beside the table;
// - example paths the forms show as placeholders, taken from the operation table.
import { documents, operation } from '../../server/contract/call.js';

/** The API reference page, from the origin of an environment's listener. */
export const API_REFERENCE_PATH = documents.reference;
/** The OpenAPI document, from the origin of an environment's listener. */
export const OPENAPI_DOCUMENT_PATH = documents.openapi;

/** Placeholders of the path fields: a resource to expect (Scenarios), a request to fault (Faults). */
export const EXAMPLE_PATHS = {
  /** `/sandbox/checkouts/<id>`: a control-API resource the recording can read back */
  resource: operation('sandboxGetCheckout').path.replace('{id}', '<id>'),
  /** `/v1/checkouts/{id}`: a route pattern of the API a fault rule matches */
  faultedRoute: operation('getCheckout').path,
} as const;
