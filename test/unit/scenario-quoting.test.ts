import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { parseScenario } from '../../server/scenarios/parse.js';

const DOC = readFileSync(fileURLToPath(new URL('../../docs/scenarios.md', import.meta.url)), 'utf8');

/** The docs' example of quoting a `{id}` path, as the steps of a scenario. */
function quotingExample(): string {
  const at = DOC.indexOf('**Quote a path with `{id}` inside `{ … }`.**');
  expect(at).toBeGreaterThan(0);
  const block = /```yaml\n([\s\S]*?)```/.exec(DOC.slice(at))![1]!;
  return `name: quoting\nsteps:\n${block}`;
}

it('the documented quoting of a {id} path parses, in flow and block form alike', () => {
  const parsed = parseScenario(quotingExample());
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const paths = parsed.scenario.steps.map((step) => JSON.stringify(step));
  expect(paths).toHaveLength(2);
  for (const step of paths) expect(step).toContain('"path":"/v1/checkouts/{id}"');
});

it('unquoted inside a flow mapping it fails, naming the line (what the docs warn of)', () => {
  const text = 'name: quoting\nsteps:\n  - expect: { requests: { method: GET, path: /v1/checkouts/{id} } }\n';
  const parsed = parseScenario(text);
  expect(parsed.ok).toBe(false);
  if (!parsed.ok) expect(JSON.stringify(parsed.errors)).toMatch(/line.{0,4}3|"line":3/);
});
