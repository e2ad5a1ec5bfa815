import { describe, expect, it } from 'vitest';
import { demoSpanMs } from '../../server/cli/demo.js';
import { libraryText } from '../../server/scenarios/library.js';
import { parseScenario } from '../../server/scenarios/parse.js';

// `serve --demo` starts the demo's clock as far back as the demo moves it: its history ends now.

describe('the demo’s span', () => {
  it('is the sum of the clock advances, freeze and resume moving nothing', () => {
    const parsed = parseScenario(
      'name: t\nsteps:\n  - clock: { advance: 1d2h }\n  - clock: freeze\n  - clock: { advance: 30m }\n  - clock: resume\n',
    );
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(demoSpanMs(parsed.scenario.steps)).toBe((26 * 3600 + 1800) * 1000);
  });

  it('is about four weeks for the built-in demo', () => {
    const parsed = parseScenario(libraryText('demo'));
    if (!parsed.ok) throw new Error(parsed.errors[0]?.message);
    const days = demoSpanMs(parsed.scenario.steps) / 86_400_000;
    expect(days).toBeGreaterThan(25);
    expect(days).toBeLessThan(31);
  });
});
