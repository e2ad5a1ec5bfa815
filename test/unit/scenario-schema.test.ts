import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { scenarioJsonSchema } from '../../server/scenarios/format.js';

const FILE = fileURLToPath(new URL('../../docs/scenario.schema.json', import.meta.url));
const DOC = fileURLToPath(new URL('../../docs/scenarios.md', import.meta.url));
const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const text = () => `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;

describe('docs/scenario.schema.json', () => {
  it('is the schema generated from server/scenarios/format.ts (WRITE_SCENARIO_SCHEMA=1 rewrites it)', () => {
    if (process.env.WRITE_SCENARIO_SCHEMA === '1') writeFileSync(FILE, text());
    expect(
      readFileSync(FILE, 'utf8'),
      'stale: run WRITE_SCENARIO_SCHEMA=1 npx vitest run test/unit/scenario-schema.test.ts',
    ).toBe(text());
  });

  it('is a valid JSON Schema that accepts the documented example and refuses a bad step', () => {
    const ajv = new Ajv2020.default({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const validate = ajv.compile(scenarioJsonSchema());
    const readme = /## Scenarios\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readFileSync(README, 'utf8'))![1]!;
    const doc = /```yaml\n([\s\S]*?)```/.exec(readFileSync(DOC, 'utf8'))![1]!;
    for (const [where, example] of [
      ['docs/scenarios.md', doc],
      ['README', readme],
    ] as const) {
      const ok = validate(parse(example));
      expect(validate.errors ?? [], where).toEqual([]);
      expect(ok).toBe(true);
    }
    expect(validate({ name: 'x', steps: [{ call: 'POST /v1/checkouts', bodyy: {} }] })).toBe(false);
    expect(validate({ name: 'x', steps: [{ clock: { advance: '2 hours' } }] })).toBe(false);
  });
});
