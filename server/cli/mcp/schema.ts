import type { TSchema } from 'typebox';

// The JSON Schemas an MCP client meets: the contract's TypeBox schemas, made portable (every node
// one `type`, every object its properties or additionalProperties), and the projection of an
// answer onto the schema a tool declares for it.

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A pattern that admits every property name: TypeBox's Record of a string key. */
const ANY_NAME = new Set(['^.*$', '^(.*)$']);

/**
 * The schema as JSON an MCP client accepts everywhere: no `$id` (nothing refers to it), `type: [t,
 * 'null']` (the contract's cheap nullable, server/contract/common.ts) split into `anyOf` branches
 * of one type each, a Record of any name as `additionalProperties`, and a free-form value
 * (`Record<string, unknown>`) as an object with `additionalProperties: true`. A node with no type
 * at all is a mistake of the tool that declared it: it throws, naming where.
 */
export function portable(schema: TSchema | Node, at = '#'): Node {
  const node = JSON.parse(JSON.stringify(schema)) as Node;
  return rewrite(node, at);
}

function rewrite(node: Node, at: string): Node {
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id' || key === '$schema') continue;
    out[key] = value;
  }
  if (isNode(out.properties)) {
    const properties: Node = {};
    for (const [name, child] of Object.entries(out.properties))
      properties[name] = rewrite(child as Node, `${at}/properties/${name}`);
    out.properties = properties;
  }
  if (isNode(out.patternProperties)) {
    const patterns = Object.entries(out.patternProperties);
    if (patterns.length === 1 && ANY_NAME.has(patterns[0]![0]) && out.additionalProperties === undefined) {
      const value = patterns[0]![1] as Node;
      delete out.patternProperties;
      out.additionalProperties =
        Object.keys(value).length === 0 ? true : rewrite(value, `${at}/additionalProperties`);
    } else throw new Error(`${at}: patternProperties other than any name are not portable`);
  }
  if (isNode(out.additionalProperties))
    out.additionalProperties = rewrite(out.additionalProperties, `${at}/additionalProperties`);
  if (isNode(out.items)) out.items = rewrite(out.items, `${at}/items`);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    if (Array.isArray(out[key]))
      out[key] = (out[key] as Node[]).map((branch, i) => rewrite(branch, `${at}/${key}/${i}`));
  if (Array.isArray(out.type)) return split(out);
  if (out.type === undefined && out.anyOf === undefined && out.oneOf === undefined && out.allOf === undefined)
    throw new Error(`${at}: a schema with no type (give the tool a typed schema here)`);
  if (out.type === 'object' && out.properties === undefined && out.additionalProperties === undefined)
    out.properties = {};
  return out;
}

/** `{type: ['integer', 'null'], minimum: 0}` → `{anyOf: [{type: 'integer', minimum: 0}, {type: 'null'}]}`. */
function split(node: Node): Node {
  const { type, enum: values, description, default: fallback, examples, title, ...rest } = node;
  const types = type as string[];
  const branches = types.map((t): Node => {
    if (t === 'null') return { type: 'null' };
    const branch: Node = { type: t, ...rest };
    if (Array.isArray(values)) branch.enum = values.filter((v) => v !== null);
    return branch;
  });
  const out: Node = { anyOf: branches };
  if (title !== undefined) out.title = title;
  if (description !== undefined) out.description = description;
  if (fallback !== undefined) out.default = fallback;
  if (examples !== undefined) out.examples = examples;
  return out;
}

/**
 * The value cut to what the schema declares: an object keeps only its declared properties (each
 * cut in turn), an array each item, `T | null` the value by T's schema. Where the schema says
 * nothing narrower (free-form objects, unions of objects), the value stays as it is.
 */
export function project(schema: TSchema | Node, value: unknown): unknown {
  const node = schema as Node;
  if (value === null || value === undefined) return value;
  if (Array.isArray(node.anyOf)) {
    const branches = (node.anyOf as Node[]).filter((b) => b.type !== 'null');
    return branches.length === 1 ? project(branches[0]!, value) : value;
  }
  if (node.type === 'array' && isNode(node.items) && Array.isArray(value))
    return value.map((item) => project(node.items as Node, item));
  if (isNode(node.properties) && isNode(value)) {
    const properties = node.properties;
    if (Object.keys(properties).length === 0 && node.additionalProperties !== false) return value;
    const out: Node = {};
    for (const [name, child] of Object.entries(properties))
      if (value[name] !== undefined) out[name] = project(child as Node, value[name]);
    return out;
  }
  return value;
}

/** One problem of a listed schema, as a portability check reports it. */
export interface Finding {
  path: string;
  issue: string;
}

/** Keywords whose value is a map of schemas, a list of schemas, or one schema. */
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SINGLES = ['items', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'additionalProperties'];

/**
 * The portability problems of a schema an MCP client is given: a `type` array (clients that map
 * tool schemas onto a one-type dialect reject it), a node with no type (nor anyOf/oneOf/allOf of
 * typed branches), an object with neither properties nor additionalProperties, a bare boolean
 * where a schema is expected (`additionalProperties: true|false` is the one place it belongs),
 * a `$ref` (clients resolve none outside the document) and a `$id`.
 */
export function lint(schema: unknown, path = ''): Finding[] {
  const findings: Finding[] = [];
  walk(schema, path, undefined, findings);
  return findings;
}

function walk(node: unknown, path: string, keyword: string | undefined, findings: Finding[]): void {
  if (typeof node === 'boolean') {
    if (keyword !== 'additionalProperties')
      findings.push({ path, issue: `a bare ${node} where a schema is expected` });
    return;
  }
  if (!isNode(node)) {
    findings.push({ path, issue: 'not a schema' });
    return;
  }
  if (Array.isArray(node.type))
    findings.push({ path, issue: `type is an array (${JSON.stringify(node.type)})` });
  const composed = ['anyOf', 'oneOf', 'allOf'].some((k) => Array.isArray(node[k]));
  if (node.type === undefined && !composed && keyword !== 'not')
    findings.push({ path, issue: 'no type: it accepts any value' });
  if (node.type === 'object' && node.properties === undefined && node.additionalProperties === undefined)
    findings.push({ path, issue: 'an object with neither properties nor additionalProperties' });
  if (node.type === 'array' && node.items === undefined)
    findings.push({ path, issue: 'an array with no items schema' });
  if (typeof node.$ref === 'string') findings.push({ path, issue: `$ref ${node.$ref}` });
  if (node.$id !== undefined) findings.push({ path, issue: `$id ${String(node.$id)}` });
  for (const key of MAPS)
    if (isNode(node[key]))
      for (const [name, child] of Object.entries(node[key] as Node))
        walk(child, `${path}.${key}.${name}`, key, findings);
  for (const key of LISTS)
    if (Array.isArray(node[key]))
      for (const [i, child] of (node[key] as unknown[]).entries())
        walk(child, `${path}.${key}[${i}]`, key, findings);
  for (const key of SINGLES) if (key in node) walk(node[key], `${path}.${key}`, key, findings);
}
