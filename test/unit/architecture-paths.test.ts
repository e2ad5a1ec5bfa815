import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/**
 * docs/architecture.md walks three paths hop by hop, naming a file and a function for each: every
 * file must exist and define that function (a declaration, a method, or a named constant), so the
 * walk stays true as the code moves.
 */
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const HOP = /^\|[^|]+\|\s*`([^`]+)`\s*\|\s*`([A-Za-z_$][\w$]*)`\s*\|$/;

const hops = DOC.slice(DOC.indexOf('## Three paths'))
  .split('\n')
  .flatMap((line) => {
    const match = HOP.exec(line.trim());
    return match ? [{ file: match[1]!, name: match[2]! }] : [];
  });

/** Whether `text` defines `name`: a function, class, const or let, or a method of a class. */
const defines = (text: string, name: string): boolean =>
  new RegExp(
    `(function\\*?\\s+${name}\\b|class\\s+${name}\\b|(const|let)\\s+${name}\\b|^\\s+(async\\s+|private\\s+|static\\s+)*${name}(<[^>]*>)?\\()`,
    'm',
  ).test(text);

describe('the architecture walk', () => {
  it('names at least the three paths', () => {
    expect(hops.length).toBeGreaterThanOrEqual(30);
  });

  it('names files that exist and functions they define', () => {
    const wrong = hops.filter(({ file, name }) => {
      const path = join(ROOT, file);
      return !existsSync(path) || !defines(readFileSync(path, 'utf8'), name);
    });
    expect(wrong).toEqual([]);
  });
});
