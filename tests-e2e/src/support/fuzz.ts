import fc from 'fast-check';
import { ERROR_STATUS } from '@svc/core';
import type { OpenAPIObject, OperationObject } from '@svc/openapi';

/** The subset of JSON Schema (OpenAPI 3.0's Schema Object) the document uses. */
interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  nullable?: boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
}

/** Strings a careless or hostile client sends in place of any string. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  'a\u0000b',
  '\ud800',
  '\u202eevil',
  'e\u0301\u0301\u0301',
  '../../../etc/passwd',
  "x' OR 1=1--",
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '%00%ZZ',
  '\r\nX-Injected: 1',
  '__proto__',
  'constructor',
  '\u{1F4A9}'.repeat(50),
];
/** Values of every JSON type, put where a schema wants another. */
const OTHER_TYPES: unknown[] = [null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, '', '1', [], [null], {}, { a: 1 }];
/** Nesting no body may have (the limit is 64 levels); the raw bodies go 5,000 deep. */
const deepArray = (levels: number) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`) as unknown;
const deepObject = (levels: number) => JSON.parse(`${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`) as unknown;

/** Resolves `$ref`s into the document and reads schemas into fast-check arbitraries. */
export class SchemaArbitraries {
  constructor(private readonly document: OpenAPIObject) {}

  resolve(schema: Schema): Schema {
    if (!schema.$ref) return schema;
    const target = schema.$ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<any>((node, part) => node[part], this.document) as Schema;
    return this.resolve(target);
  }

  /** Values the schema accepts (kept small: strings of at most 40 characters past their minimum). */
  valid(raw: Schema, depth = 0): fc.Arbitrary<unknown> {
    const schema = this.resolve(raw);
    const arbitrary = this.validOf(schema, depth);
    return schema.nullable ? fc.option(arbitrary, { nil: null }) : arbitrary;
  }

  private validOf(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (alternatives) return fc.oneof(...alternatives.map((s) => this.valid(s, depth + 1)));
    if (schema.enum) return fc.constantFrom(...schema.enum);
    switch (schema.type) {
      case 'string':
        return this.string(schema);
      case 'integer':
        return fc.integer({ min: (schema.minimum ?? -1e6) + (schema.exclusiveMinimum ? 1 : 0), max: schema.maximum ?? 1e9 });
      case 'number':
        return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true, minExcluded: schema.exclusiveMinimum });
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(this.valid(schema.items ?? {}, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, Math.max(schema.minItems ?? 0, 4)) });
      case 'object':
        return this.object(schema, depth);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  private string(schema: Schema): fc.Arbitrary<string> {
    const minLength = schema.minLength ?? 0;
    const maxLength = Math.min(schema.maxLength ?? minLength + 40, minLength + 40);
    const fits = (s: string) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity);
    if (schema.format === 'uuid') return fc.uuid();
    if (schema.format === 'email') return fc.emailAddress().filter(fits);
    if (schema.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
    if (schema.format === 'uri') return fc.webUrl({ withQueryParameters: true }).filter(fits);
    if (schema.format === 'binary') return fc.string({ maxLength });
    if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
    return fc.string({ minLength, maxLength, unit: 'grapheme' });
  }

  private object(schema: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, s]) => [name, this.valid(s, depth + 1)]));
    const record = fc.record(properties, { requiredKeys: schema.required ?? [] });
    if (!schema.additionalProperties || depth > 2) return record;
    const extra = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
    return fc.tuple(record, extra).map(([known, more]) => ({ ...more, ...known }));
  }

  /** Values at and past the schema's edges, of other types, hostile strings, huge and deep values. */
  hostile(raw: Schema): fc.Arbitrary<unknown> {
    const schema = this.resolve(raw);
    const edges: unknown[] = [];
    if (schema.maxLength !== undefined) edges.push('x'.repeat(schema.maxLength), 'x'.repeat(schema.maxLength + 1));
    if (schema.minLength) edges.push('x'.repeat(schema.minLength - 1));
    if (schema.minimum !== undefined) edges.push(schema.minimum, schema.minimum - 1, schema.minimum - 0.5);
    if (schema.maximum !== undefined) edges.push(schema.maximum, schema.maximum + 1);
    if (schema.maxItems !== undefined) edges.push(Array.from({ length: schema.maxItems + 1 }, () => 'x'));
    if (schema.enum) edges.push(...schema.enum.map((v) => (typeof v === 'string' ? v.toUpperCase() + ' ' : v)));
    return fc.oneof(
      fc.constantFrom(...OTHER_TYPES, ...HOSTILE_STRINGS, ...(edges.length ? edges : [''])),
      fc.constantFrom('x'.repeat(100_000), 'é'.repeat(70_000), deepArray(1000), deepObject(200)),
      fc.string({ unit: 'binary', maxLength: 64 }),
      fc.jsonValue({ maxDepth: 4 }),
    );
  }

  /** A body the operation's JSON schema accepts, or one with a field spoilt, or something else entirely. */
  body(raw: Schema): fc.Arbitrary<unknown> {
    const schema = this.resolve(raw);
    const valid = this.valid(schema);
    const names = Object.keys(schema.properties ?? {});
    const spoilt = names.length
      ? fc
          .tuple(valid, fc.constantFrom(...names, 'unknown_field', '__proto__'), fc.oneof(this.hostile(schema.properties?.[names[0]!] ?? {}), ...names.map((n) => this.hostile(schema.properties![n]!))))
          .map(([value, key, bad]) => ({ ...(value as object), [key]: bad }))
      : this.hostile(schema);
    return fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: spoilt, weight: 4 }, { arbitrary: this.hostile(schema), weight: 1 });
  }
}

/**
 * Every error code a client may see: the spec's code → status table and the codes the document
 * names in its answers' descriptions.
 */
export function documentedCodes(document: OpenAPIObject): Set<string> {
  const named = JSON.stringify(document.paths).match(/`[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+`/g) ?? [];
  const inComponents = JSON.stringify(document.components?.responses ?? {}).match(/`[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+`/g) ?? [];
  return new Set([...Object.keys(ERROR_STATUS), ...[...named, ...inComponents].map((c) => c.slice(1, -1))]);
}

/** The statuses an operation lists by number (a 5xx is acceptable only where it is one of them). */
export function listedStatuses(operation: OperationObject): Set<number> {
  return new Set(Object.keys(operation.responses ?? {}).filter((k) => /^\d{3}$/.test(k)).map(Number));
}

/** Whether the operation documents the spec's reduced error body (`{success: false, error: {message}}`) for `status`. */
export function allowsReducedError(operation: OperationObject, status: number): boolean {
  return JSON.stringify(operation.responses?.[status] ?? {}).includes('ReducedError');
}
