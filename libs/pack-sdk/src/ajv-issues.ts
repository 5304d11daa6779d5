import type { ErrorObject } from 'ajv';

/** One problem found in a document: where (dotted path, `(root)` for the whole) and what. */
export interface SchemaIssue {
  field: string;
  message: string;
}

function join(base: string, key: string | number): string {
  return base === '' ? String(key) : `${base}.${key}`;
}

/** `/commands/0/name` → `commands.0.name`, with `~1`/`~0` unescaped. */
function dotted(instancePath: string): string {
  if (instancePath === '') return '';
  return instancePath
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/** Turns ajv's errors into readable issues, naming the offending field and what it should be. */
export function issuesFromAjv(errors: ErrorObject[] | null | undefined, prefix = ''): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  for (const error of errors ?? []) {
    let field = dotted(error.instancePath);
    let message = error.message ?? 'is invalid';
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'additionalProperties') {
      field = join(field, String(params.additionalProperty));
      message = 'is not a known field';
    } else if (error.keyword === 'required') {
      field = join(field, String(params.missingProperty));
      message = 'is required';
    } else if (error.keyword === 'enum') {
      message = `must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    } else if (error.keyword === 'const') {
      message = `must be ${JSON.stringify(params.allowedValue)}`;
    }
    const full = prefix === '' ? field : field === '' ? prefix : `${prefix}.${field}`;
    issues.push({ field: full === '' ? '(root)' : full, message });
  }
  return issues;
}
