import type { ValidateFunction } from 'ajv';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { buildOpenApiDocument } from '@svc/gateway';
import { operationsOf } from '@svc/gateway/openapi';
import type { OpenAPIObject, OperationObject, ResponseObject } from '@svc/openapi';

/** Base URI under which the document is registered with ajv; never fetched. */
const DOCUMENT_ID = 'urn:svc:openapi';
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** One operation of the document: its method (upper case), path template and description. */
export interface DocumentedOperation {
  method: string;
  template: string;
  operation: OperationObject;
}

/** Every operation the document describes, path by path. */
export function documentedOperations(document: OpenAPIObject = buildOpenApiDocument()): DocumentedOperation[] {
  return operationsOf(document.paths).map(({ method, template, operation }) => ({ method: method.toUpperCase(), template, operation }));
}

interface DescribedOperation extends DocumentedOperation {
  pattern: RegExp;
  /** Templated segments: a literal path wins over a template that also matches. */
  params: number;
}

const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Checks answers against the public OpenAPI document (the in-process assembly the gateway
 * serves). A method and path the document does not describe (an unknown path, say) must answer
 * the fleet's error body.
 */
export class ResponseChecker {
  // OpenAPI 3.0's Schema Object extends draft 04 (boolean `exclusiveMinimum`); ajv reads its `nullable`.
  private readonly ajv = new Ajv04({ allErrors: true, strict: true, strictTypes: false, strictTuples: false });
  private readonly operations: DescribedOperation[] = [];

  constructor(private readonly document: OpenAPIObject) {
    addFormats(this.ajv);
    // The whole document is one schema resource, so `#/components/schemas/...` resolve inside it;
    // its top-level fields are not JSON Schema keywords, so they are declared as annotations.
    this.ajv.addVocabulary(Object.keys(document));
    this.ajv.addSchema(document as object, DOCUMENT_ID, undefined, false);
    for (const documented of documentedOperations(document)) {
      const { template } = documented;
      const params = (template.match(/\{[^}]+\}/g) ?? []).length;
      const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`);
      this.operations.push({ ...documented, pattern, params });
    }
    this.operations.sort((a, b) => a.params - b.params);
  }

  /** A description of the mismatch, or undefined when the answer is as documented. */
  check(method: string, url: string, status: number, contentType: string | null, body: unknown): string | undefined {
    // A HEAD answer has the headers of the GET's but never a body.
    if (!contentType || !JSON_TYPE.test(contentType) || method.toUpperCase() === 'HEAD') return undefined;
    const { path, found } = this.find(method, url);
    const where = `${method.toUpperCase()} ${path} → ${status}`;
    if (!found) return this.validate(`#/components/schemas/Error`, body, `${where} (not in the document, so the error body)`);
    const operation = `${found.method} ${found.template}`;
    const response = this.responseOf(found, status);
    if (!response?.resolved.content?.['application/json']) return `The answer to ${where} is JSON, but the document gives ${operation} no JSON answer for ${status}`;
    return this.validate(`${response.pointer}/content/application~1json/schema`, body, found.template === path ? where : `${where} (${operation})`);
  }

  /**
   * A description of the mismatch when the document lists no `contentType` answer for this
   * method, path and status (an undescribed method and path answers JSON, the error body).
   */
  checkMediaType(method: string, url: string, status: number, contentType: string | null): string | undefined {
    if (!contentType) return undefined;
    const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
    const { path, found } = this.find(method, url);
    const listed = found ? Object.keys(this.responseOf(found, status)?.resolved.content ?? {}) : ['application/json'];
    if (listed.includes(mediaType)) return undefined;
    return `The answer to ${method.toUpperCase()} ${path} → ${status} is ${mediaType}, but the document lists ${listed.join(', ') || 'no body'} for it`;
  }

  private find(method: string, url: string): { path: string; found?: DescribedOperation } {
    const path = new URL(url, 'http://gateway').pathname.replace(/(.)\/+$/, '$1');
    return { path, found: this.operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(path)) };
  }

  /** The answer the operation documents for `status` (else `4XX`, else `default`), and its JSON pointer. */
  private responseOf({ method, template, operation }: DescribedOperation, status: number): { pointer: string; resolved: ResponseObject } | undefined {
    const keys = [String(status), `${Math.floor(status / 100)}XX`, 'default'];
    const key = keys.find((k) => operation.responses?.[k] !== undefined);
    if (!key) return undefined;
    const response = operation.responses?.[key] as ResponseObject | { $ref: string };
    if ('$ref' in response) return { pointer: response.$ref, resolved: this.resolve<ResponseObject>(response.$ref) };
    return { pointer: `#/paths/${escapePointer(template)}/${method.toLowerCase()}/responses/${key}`, resolved: response };
  }

  private resolve<T>(ref: string): T {
    return ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<any>((node, part) => node[part], this.document) as T;
  }

  private validate(pointer: string, body: unknown, where: string): string | undefined {
    const validator = this.ajv.getSchema(`${DOCUMENT_ID}${pointer}`) as ValidateFunction;
    if (validator(body)) return undefined;
    const errors = (validator.errors ?? [])
      .map((e) => `body${e.instancePath} ${e.message}${e.params.additionalProperty ? ` (${e.params.additionalProperty})` : ''}`)
      .join('; ');
    return `The answer to ${where} does not match the OpenAPI document: ${errors}\nBody: ${JSON.stringify(body).slice(0, 2000)}`;
  }
}

let checker: ResponseChecker | undefined;

/** One checker per process: the document is assembled once. */
export function responseChecker(): ResponseChecker {
  return (checker ??= new ResponseChecker(buildOpenApiDocument()));
}
