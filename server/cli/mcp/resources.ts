import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { documents } from '../../contract/call.js';
import type { SandboxClient } from '../client.js';

// What an agent can read: the spec as this sandbox serves it (its OpenAPI document: every /v1 and
// /sandbox operation with its schemas; the service's own prose spec is not shipped), the README
// and the documents the package ships in docs/.

export interface Resource {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  read(client: SandboxClient): Promise<string>;
}

/**
 * A file of the package root (the repository's in a checkout): three levels up from this module's
 * source (server/cli/mcp/), four from its build (dist/server/cli/mcp/).
 */
const shipped = (path: string) => async () => {
  for (const up of ['../../../', '../../../../']) {
    const file = new URL(`${up}${path}`, import.meta.url);
    if (existsSync(file)) return readFile(file, 'utf8');
  }
  throw new Error(`${path} is not in this installation of svc-sandbox`);
};

export const RESOURCES: readonly Resource[] = [
  {
    uri: 'svc-sandbox://spec/openapi.json',
    name: 'spec',
    title: 'The API spec (OpenAPI)',
    description:
      'The spec of the API this sandbox serves: the OpenAPI 3 document of every /v1 (merchant API) and /sandbox (control API) operation, with request and response schemas, as the running sandbox serves it (GET /sandbox/openapi.json). Amounts are integers in minor units.',
    mimeType: 'application/json',
    // The document itself is no operation of it (a hidden route, server/app.ts).
    read: async (client) =>
      JSON.stringify(await client.in(undefined).request<unknown>('GET', documents.openapi)),
  },
  {
    uri: 'svc-sandbox://docs/README.md',
    name: 'readme',
    title: 'svc-sandbox README',
    description:
      'How the sandbox works: workspaces, the clock, webhooks and the inbox, scenarios, the CLI, the control API.',
    mimeType: 'text/markdown',
    read: shipped('README.md'),
  },
  {
    uri: 'svc-sandbox://docs/decisions.md',
    name: 'decisions',
    title: 'Decisions where the spec is silent',
    description:
      'Every choice the sandbox makes where the service spec leaves behaviour open: error statuses, lists, fees, refunds, webhooks, events.',
    mimeType: 'text/markdown',
    read: shipped('docs/decisions.md'),
  },
  {
    uri: 'svc-sandbox://docs/scenarios.md',
    name: 'scenarios',
    title: 'Scenario files',
    description: 'The YAML scenario format (`svc-sandbox run`): steps, expectations, webhooks.',
    mimeType: 'text/markdown',
    read: shipped('docs/scenarios.md'),
  },
];
