/**
 * The sandbox's contract as parity reads it: the OpenAPI document the sandbox under test serves
 * (GET /sandbox/openapi.json). It says, for a field of an answer or a webhook payload, which
 * values the sandbox lists (an enum), whether null is one of them and the field's format.
 */

/** A JSON Schema as the OpenAPI document has it (plain JSON). */
export type Schema = { [keyword: string]: unknown };

const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** What the contract says of one field (any of the branches of a union). */
export interface FieldContract {
  /** the values it lists, when every branch lists its values; undefined: not an enum */
  enum?: unknown[];
  nullable: boolean;
  /** `uuid`, `date-time`, `uri`... */
  format?: string;
}

export class Contract {
  private readonly paths: { method: string; template: string[]; operation: Schema }[] = [];

  constructor(private readonly doc: Schema) {
    const paths = isSchema(doc.paths) ? doc.paths : {};
    for (const [path, item] of Object.entries(paths)) {
      if (!isSchema(item)) continue;
      for (const [method, operation] of Object.entries(item)) {
        if (isSchema(operation))
          this.paths.push({ method: method.toUpperCase(), template: path.split('/'), operation });
      }
    }
  }

  /** The schema of the answer `method path` gives with `status` (the path's query is ignored). */
  response(method: string, path: string, status: number): Schema | undefined {
    const segments = path.split('?')[0]!.split('/');
    let best: { operation: Schema; fixed: number } | undefined;
    for (const candidate of this.paths) {
      if (candidate.method !== method || candidate.template.length !== segments.length) continue;
      let fixed = 0;
      const fits = candidate.template.every((part, i) => {
        if (/^\{.+\}$/.test(part)) return true;
        fixed++;
        return part === segments[i];
      });
      // `/v1/checkouts/{id}` and `/v1/checkouts/search` both fit `search`: the fixed one wins.
      if (fits && (!best || fixed > best.fixed)) best = { operation: candidate.operation, fixed };
    }
    const responses = best && isSchema(best.operation.responses) ? best.operation.responses : {};
    const answer = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    return this.jsonSchema(answer);
  }

  /** The schema of a webhook's `data` (the envelope's payload) for an event type. */
  webhookData(type: string): Schema | undefined {
    const hooks = isSchema(this.doc.webhooks) ? this.doc.webhooks : {};
    const post = isSchema(hooks[type]) ? hooks[type].post : undefined;
    const body = isSchema(post) ? post.requestBody : undefined;
    const envelope = this.jsonSchema(body);
    const properties = envelope && isSchema(envelope.properties) ? envelope.properties : {};
    return isSchema(properties.data) ? properties.data : undefined;
  }

  /** The schema of a field (by name) or an array item (by index) of a value of `schema`. */
  child(schema: Schema | undefined, key: string | number): Schema | undefined {
    if (!schema) return undefined;
    const found: Schema[] = [];
    for (const branch of this.branches(schema)) {
      if (typeof key === 'number') {
        if (isSchema(branch.items)) found.push(branch.items);
        continue;
      }
      const properties = isSchema(branch.properties) ? branch.properties : {};
      const property = properties[key];
      if (isSchema(property)) found.push(property);
      else if (isSchema(branch.additionalProperties)) found.push(branch.additionalProperties);
    }
    if (found.length === 0) return undefined;
    return found.length === 1 ? found[0] : { anyOf: found };
  }

  /** What the contract says of a field of this schema. */
  field(schema: Schema | undefined): FieldContract {
    if (!schema) return { nullable: false };
    const values: unknown[] = [];
    let listed = true;
    let nullable = false;
    let format: string | undefined;
    for (const branch of this.branches(schema)) {
      const types = Array.isArray(branch.type) ? branch.type : [branch.type];
      if (types.includes('null')) nullable = true;
      if (typeof branch.format === 'string') format ??= branch.format;
      if (Array.isArray(branch.enum)) {
        values.push(...branch.enum);
        if (branch.enum.includes(null)) nullable = true;
      } else if ('const' in branch) values.push(branch.const);
      else if (!(types.length === 1 && types[0] === 'null')) listed = false;
    }
    return {
      ...(listed && values.length > 0 ? { enum: values } : {}),
      nullable,
      ...(format ? { format } : {}),
    };
  }

  /** The branches of a schema: itself, or the parts of its anyOf / oneOf / allOf, $refs followed. */
  private branches(schema: Schema, depth = 0): Schema[] {
    const resolved = this.deref(schema);
    if (!resolved || depth > 20) return [];
    const parts = [resolved.anyOf, resolved.oneOf, resolved.allOf].flatMap((p) =>
      Array.isArray(p) ? p.filter(isSchema) : [],
    );
    if (parts.length === 0) return [resolved];
    const { anyOf: _a, oneOf: _o, allOf: _l, ...own } = resolved;
    return [
      ...(Object.keys(own).length > 0 ? [own] : []),
      ...parts.flatMap((p) => this.branches(p, depth + 1)),
    ];
  }

  private deref(schema: Schema): Schema | undefined {
    let current: Schema | undefined = schema;
    for (let hops = 0; current && typeof current.$ref === 'string' && hops < 20; hops++) {
      const ref: string = current.$ref as string;
      if (!ref.startsWith('#/')) return undefined;
      let target: unknown = this.doc;
      for (const part of ref.slice(2).split('/')) {
        const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
        target = isSchema(target) ? target[key] : undefined;
      }
      current = isSchema(target) ? target : undefined;
    }
    return current;
  }

  private jsonSchema(answer: unknown): Schema | undefined {
    const resolved = isSchema(answer) ? this.deref(answer) : undefined;
    const content = resolved && isSchema(resolved.content) ? resolved.content : {};
    const json = content['application/json'];
    return isSchema(json) && isSchema(json.schema) ? json.schema : undefined;
  }
}
