/**
 * How thorough the property and fuzz tests are. Every run sizes them to find what they have found
 * so far in a few seconds; `npm run test:deep` (SVC_TEST_DEPTH=deep) runs them several times
 * larger, for a change to the domain, the HTTP layer or a generator. A test's own variable
 * (FUZZ_RUNS, FUZZ_STEPS) still wins over both.
 */
export const DEEP = process.env.SVC_TEST_DEPTH === 'deep';

/** `everyday` in every run, `deep` under `npm run test:deep`. */
export function sized(everyday: number, deep: number): number {
  return DEEP ? deep : everyday;
}
