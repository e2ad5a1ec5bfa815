import { createRequire } from 'node:module';

type CodeRow = [alpha2: string, alpha3: string, numeric: string, iso: string];
const codes = createRequire(import.meta.url)('i18n-iso-countries/codes.json') as CodeRow[];

const ALPHA3 = new Set(codes.map((row) => row[1]));
const ALPHA2 = new Set(codes.map((row) => row[0]));

export const isAlpha3Country = (code: string): boolean => ALPHA3.has(code);
export const isAlpha2Country = (code: string): boolean => ALPHA2.has(code);

/** The codes themselves, sorted: the OpenAPI document lists them as the enums the checks above are. */
export const ALPHA2_CODES: readonly string[] = [...ALPHA2].sort();
export const ALPHA3_CODES: readonly string[] = [...ALPHA3].sort();
