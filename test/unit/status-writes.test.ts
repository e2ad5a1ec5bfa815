import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// A source guard: every status change of a resource in server/domain, server/simulate and
// server/webhooks goes through its state table (server/domain/state.ts), so a status is never
// written to an existing row by hand. What counts as a write by hand:
//
//   1. an object literal that spreads something (an existing row) and then sets a status field:
//      `{ ...row, status: 'paid' }`, over any number of lines and other fields in between;
//   2. an assignment to a status property: `row.status = 'paid'`, `row['kyb_status'] ??= x`;
//   3. `Object.assign(row, { status: ... })`;
//   4. SQL that sets a status: `UPDATE ... SET status = ...` in a string or template literal.
//
// Not writes by hand (the current tree has each of these):
//
//   - a NEW row: an object literal that sets its own `id` (`{ id: ids.uuid(), status: 'active', ... }`);
//   - a status set before the spread (`{ status: 'x', ...row }`: the row's own status wins);
//   - the spread of a checked move (`{ ...cardStates.move(card, 'active'), updated_at }`);
//   - a status copied from another object's same field (`{ ...presented, kyc_status: holder.kyc_status }`:
//     it carries a status, it does not decide one);
//   - a status checked first, in the same function, by `<x>States.assert(from, to)`, the field being
//     set to exactly that `to` (or `to ?? <row>.<field>`): "assert where the new row is built by hand";
//   - a local variable named `status` (`status = 'failed'` on a `let`): no row is written by it.
//
// Found with the TypeScript parser rather than a line regex, so a literal spread over several lines,
// with other fields between the spread and the status, is still seen.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SCANNED = ['server/domain', 'server/simulate', 'server/webhooks'];
const EXEMPT = new Set(['server/domain/state.ts']);

const STATUS_FIELDS = new Set(['status', 'kyc_status', 'kyb_status']);
/** SQL that writes a status column. */
const SQL_STATUS_WRITE = /\bUPDATE\b[\s\S]*\bSET\b[\s\S]*\b(status|kyc_status|kyb_status)\s*=/i;

interface Bypass {
  line: number;
  kind: 'spread' | 'assignment' | 'Object.assign' | 'sql';
  text: string;
}

const isFunctionLike = (node: ts.Node): node is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

function propertyName(name: ts.PropertyName | ts.Expression): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name))
    return name.text;
  return undefined;
}

/** `x.status`, `x['status']` (through `!` and parentheses): the field name, else undefined. */
function statusTarget(node: ts.Expression): string | undefined {
  let target = node;
  while (ts.isNonNullExpression(target) || ts.isParenthesizedExpression(target)) target = target.expression;
  let name: string | undefined;
  if (ts.isPropertyAccessExpression(target)) name = target.name.text;
  else if (ts.isElementAccessExpression(target)) name = propertyName(target.argumentExpression);
  return name !== undefined && STATUS_FIELDS.has(name) ? name : undefined;
}

const unwrap = (node: ts.Expression): ts.Expression => {
  let inner = node;
  while (ts.isNonNullExpression(inner) || ts.isParenthesizedExpression(inner)) inner = inner.expression;
  return inner;
};

/** `other.<field>`: the same status field read from some object. */
const readsField = (value: ts.Expression, field: string): boolean => statusTarget(value) === field;

/** `<something>States.assert(from, to, ...)`: the `to` argument, else undefined. */
function assertedTarget(node: ts.Node, source: ts.SourceFile): string | undefined {
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return undefined;
  const callee = node.expression;
  if (callee.name.text !== 'assert') return undefined;
  const machine = ts.isPropertyAccessExpression(callee.expression)
    ? callee.expression.name.text
    : ts.isIdentifier(callee.expression)
      ? callee.expression.text
      : '';
  if (!machine.endsWith('States') || node.arguments.length < 2) return undefined;
  return node.arguments[1]!.getText(source);
}

/**
 * True when `value`, written to `field` at `at`, was checked by a state table first: a
 * `*States.assert(_, to)` earlier in the same (outermost) function, and the value is that `to` or
 * `to ?? <x>.<field>` (nothing given: the status stays).
 */
function checkedByTable(at: ts.Node, field: string, value: ts.Expression, source: ts.SourceFile): boolean {
  let scope: ts.Node | undefined;
  for (let node: ts.Node | undefined = at.parent; node; node = node.parent)
    if (isFunctionLike(node)) scope = node;
  if (!scope) return false;
  const written = unwrap(value);
  const candidates = [written.getText(source)];
  if (
    ts.isBinaryExpression(written) &&
    (written.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ||
      written.operatorToken.kind === ts.SyntaxKind.BarBarToken) &&
    readsField(written.right, field)
  ) {
    candidates.push(unwrap(written.left).getText(source));
  }
  let checked = false;
  const visit = (node: ts.Node): void => {
    if (checked || node.pos >= at.pos) return;
    const to = assertedTarget(node, source);
    if (to !== undefined && node.end <= at.pos && candidates.includes(to)) {
      checked = true;
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(scope);
  return checked;
}

/** The status fields an object literal sets after its first spread, unless it is a new row or a checked write. */
function spreadWrites(literal: ts.ObjectLiteralExpression, source: ts.SourceFile): ts.Node[] {
  const ownsId = literal.properties.some(
    (p) =>
      (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && propertyName(p.name) === 'id',
  );
  if (ownsId) return []; // a new row
  const hits: ts.Node[] = [];
  let spread = false;
  for (const property of literal.properties) {
    if (ts.isSpreadAssignment(property)) {
      spread = true;
      continue;
    }
    if (!spread) continue;
    let value: ts.Expression;
    if (ts.isPropertyAssignment(property)) value = property.initializer;
    else if (ts.isShorthandPropertyAssignment(property)) value = property.name;
    else continue; // a method or an accessor
    const field = propertyName(property.name);
    if (field === undefined || !STATUS_FIELDS.has(field)) continue;
    if (readsField(value, field)) continue; // a status carried over from another object
    if (checkedByTable(literal, field, value, source)) continue;
    hits.push(property);
  }
  return hits;
}

const ASSIGNMENTS = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
]);

/** Status writes in one TypeScript source that bypass the state tables. */
function findStatusBypasses(text: string, fileName = 'snippet.ts'): Bypass[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const hits: Bypass[] = [];
  const report = (node: ts.Node, kind: Bypass['kind']) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    hits.push({ line: line + 1, kind, text: node.getText(source).replace(/\s+/g, ' ').slice(0, 160) });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      for (const hit of spreadWrites(node, source)) report(hit, 'spread');
    } else if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind)) {
      const field = statusTarget(node.left);
      if (field !== undefined && !checkedByTable(node, field, node.right, source)) report(node, 'assignment');
    } else if (
      ts.isCallExpression(node) &&
      node.expression.getText(source) === 'Object.assign' &&
      node.arguments.length >= 2 &&
      !ts.isObjectLiteralExpression(unwrap(node.arguments[0]!))
    ) {
      for (const argument of node.arguments.slice(1)) {
        const changes = unwrap(argument);
        if (!ts.isObjectLiteralExpression(changes)) continue;
        const sets = changes.properties.some((p) => {
          const name = p.name === undefined ? undefined : propertyName(p.name);
          return name !== undefined && STATUS_FIELDS.has(name);
        });
        if (sets) report(node, 'Object.assign');
      }
    } else if (
      (ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateExpression(node)) &&
      SQL_STATUS_WRITE.test(node.getText(source))
    ) {
      report(node, 'sql');
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return hits;
}

/** The scanned TypeScript files, relative to the repository root, with `/` separators. */
function scannedFiles(): string[] {
  const files: string[] = [];
  for (const dir of SCANNED) {
    for (const entry of readdirSync(join(repoRoot, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
      const path = relative(repoRoot, join(entry.parentPath, entry.name)).split(sep).join('/');
      if (!EXEMPT.has(path)) files.push(path);
    }
  }
  return files.sort();
}

describe('findStatusBypasses (the matcher)', () => {
  const kinds = (text: string) => findStatusBypasses(text).map((h) => h.kind);

  describe('finds a status written by hand', () => {
    it.each([
      ['a spread row with a literal status', "const next = { ...row, status: 'paid' };", ['spread']],
      [
        'over several lines, other fields first',
        "const next: CardRow = {\n  ...card,\n  updated_at: now,\n  status: 'canceled',\n};",
        ['spread'],
      ],
      ['kyc_status', 'save({ ...holder, kyc_status: result, updated_at: now });', ['spread']],
      [
        'kyb_status, shorthand',
        'const kyb_status = "approved"; save({ ...merchant, kyb_status });',
        ['spread'],
      ],
      ['a spread through `!`', "const next = { ...row!, status: 'expired' };", ['spread']],
      [
        'a checked move overridden afterwards',
        "const next = { ...checkoutStates.move(row, 'paid'), status: 'expired' };",
        ['spread'],
      ],
      [
        'asserted for another target',
        "kycStates.assert(row.kyc_status, 'pending');\nconst next = { ...row, kyc_status: 'approved' };",
        ['spread'],
      ],
      [
        'asserted after the write',
        'function f(row, to) { const next = { ...row, status: to }; cardStates.assert(row.status, to); return next; }',
        ['spread'],
      ],
      [
        'checked by something that is not a state table',
        'function f(row, to) { expect.assert(row.status, to); return { ...row, status: to }; }',
        ['spread'],
      ],
      ['a property assignment', "row.status = 'cancelled';", ['assignment']],
      ['an element assignment', "card['status'] = 'locked';", ['assignment']],
      ['a logical assignment', "merchant.kyb_status ??= 'approved';", ['assignment']],
      ['through a non-null assertion', "tx!.status = 'reversed';", ['assignment']],
      ['Object.assign', "Object.assign(row, { kyb_status: 'approved' });", ['Object.assign']],
      [
        'SQL in a string',
        'db.prepare("UPDATE cards SET status = \'canceled\' WHERE id = ?").run(id);',
        ['sql'],
      ],
      [
        'SQL in a template',
        'db.prepare(`UPDATE cardholders\n  SET kyc_status = @kyc_status WHERE id = @id`).run(row);',
        ['sql'],
      ],
    ])('%s', (_name, text, expected) => {
      expect(kinds(text)).toEqual(expected);
    });

    it('reports the line and the text', () => {
      expect(findStatusBypasses("const a = 1;\nconst next = {\n  ...row,\n  status: 'paid',\n};")).toEqual([
        { line: 4, kind: 'spread', text: "status: 'paid'" },
      ]);
    });
  });

  describe('lets through what is not a bypass', () => {
    it.each([
      ['a checked move', "const next = { ...checkoutStates.move(row, 'paid'), paid_at: now };"],
      ['a checked move, nested', 'this.save({ ...invoiceStates.move(row, to), ...changes });'],
      [
        'a new row with an initial status',
        "insert({ id: ids.uuid(), name, status: 'active', created_at: now });",
      ],
      [
        'a new row built with spreads',
        "const row = { id: ids.uuid(), ...fields, status: body.type === 'virtual' ? 'active' : 'notActivated', ...LIMITS };",
      ],
      ['a new row, shorthand id', "repo.insertDelivery({ id, ...base, status: 'pending' });"],
      ['a status before the spread', "const merged = { status: 'draft', ...row };"],
      ['a status copied over', 'return { ...presented!, env: holder.env, kyc_status: holder.kyc_status };'],
      [
        'checked by assert in the same function',
        'function kycResult(row, result) {\n  kycStates.assert(row.kyc_status, result, "decided");\n  return { ...row, is_kyc_verified: 1, kyc_status: result };\n}',
      ],
      [
        'checked by assert, with `?? row.<field>` for "not given"',
        'class M {\n  patch(row, body) {\n    if (body.kyb_status !== undefined) kybStates.assert(row.kyb_status, body.kyb_status);\n    return { ...row, kyb_status: body.kyb_status ?? row.kyb_status };\n  }\n}',
      ],
      [
        'checked by assert on this.deps.<x>States, write inside a callback',
        'class S { m(row, to) { this.deps.cardStates.assert(row.status, to); return tx(() => ({ ...row, status: to })); } }',
      ],
      ['a local variable', "let status = input.outcome;\nif (x) status = 'failed';"],
      ['a comparison', "if (row.status === 'active' && row.kyc_status !== 'approved') return;"],
      ['a response status', 'reply.status(400); const r = { ...res, response_status: 200 };'],
      [
        'SQL that reads a status',
        'db.prepare("SELECT * FROM webhook_deliveries WHERE status = \'pending\'");',
      ],
      ['Object.assign onto a fresh object', "const copy = Object.assign({}, row, { status: 'x' });"],
    ])('%s', (_name, text) => {
      expect(findStatusBypasses(text)).toEqual([]);
    });
  });
});

describe('status writes in server/{domain,simulate,webhooks}', () => {
  it('all go through the state tables', () => {
    const files = scannedFiles();
    console.log(`status-write guard: scanned ${files.length} files in ${SCANNED.join(', ')}`);
    expect(files.length).toBeGreaterThan(10);
    for (const dir of SCANNED)
      expect(
        files.some((f) => f.startsWith(`${dir}/`)),
        dir,
      ).toBe(true);
    const bypasses = files.flatMap((file) =>
      findStatusBypasses(readFileSync(join(repoRoot, file), 'utf8'), file).map(
        (hit) => `${file}:${hit.line} (${hit.kind}) ${hit.text}`,
      ),
    );
    expect(bypasses, 'status written without its state table (see server/domain/state.ts)').toEqual([]);
  });

  it('would see a bypass planted in a real file (in memory)', () => {
    const file = 'server/simulate/identity.ts';
    const real = readFileSync(join(repoRoot, file), 'utf8');
    expect(findStatusBypasses(real, file)).toEqual([]);
    const planted = `${real}\nexport function reopen(row: { status: string }) {\n  return {\n    ...row,\n    status: 'pending',\n  };\n}\n`;
    const lines = real.split('\n').length;
    expect(findStatusBypasses(planted, file)).toEqual([
      { line: lines + 4, kind: 'spread', text: "status: 'pending'" },
    ]);
  });
});
