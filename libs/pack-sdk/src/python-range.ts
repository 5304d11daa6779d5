import semver from 'semver';

/**
 * A `python:` range of `pack.yaml`, in the form Python packaging writes `Requires-Python` (PEP
 * 440 version specifiers, the subset that names releases): clauses joined by commas, each an
 * operator (`>=`, `<=`, `>`, `<`, `==`, `!=`, `~=`) and a version of one to three numbers,
 * `==`/`!=` also with a trailing `.*`. Examples: `>=3.10`, `>=3.10,<3.13`, `~=3.11`, `==3.11.*`.
 */
const CLAUSE = /^(>=|<=|>|<|==|!=|~=)\s*(\d{1,4}(?:\.\d{1,4}){0,2})(\.\*)?$/;

interface Clause {
  operator: string;
  parts: number[];
  wildcard: boolean;
}

function parseClauses(range: string): Clause[] | undefined {
  const clauses: Clause[] = [];
  for (const text of range.split(',').map((part) => part.trim())) {
    const match = CLAUSE.exec(text);
    if (!match) return undefined;
    const [, operator = '', version = '', wildcard] = match;
    const parts = version.split('.').map(Number);
    if (wildcard && operator !== '==' && operator !== '!=') return undefined;
    if (operator === '~=' && parts.length < 2) return undefined;
    clauses.push({ operator, parts, wildcard: Boolean(wildcard) });
  }
  return clauses;
}

/** Three numbers, missing ones 0 (PEP 440 pads releases with zeros). */
function padded(parts: number[]): string {
  return [0, 1, 2].map((index) => parts[index] ?? 0).join('.');
}

function startsWith(version: string, parts: number[]): boolean {
  return version.split('.').slice(0, parts.length).map(Number).every((part, index) => part === parts[index]);
}

function holds(clause: Clause, version: string): boolean {
  const order = semver.compare(version, padded(clause.parts));
  switch (clause.operator) {
    case '>=':
      return order >= 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '<':
      return order < 0;
    case '==':
      return clause.wildcard ? startsWith(version, clause.parts) : order === 0;
    case '!=':
      return clause.wildcard ? !startsWith(version, clause.parts) : order !== 0;
    default:
      // ~=X.Y: at least X.Y, within X.*; ~=X.Y.Z: at least X.Y.Z, within X.Y.*.
      return order >= 0 && startsWith(version, clause.parts.slice(0, -1));
  }
}

/** Whether `range` is a `python:` range the platform reads. */
export function isPythonRange(range: string): boolean {
  return parseClauses(range) !== undefined;
}

/**
 * Whether the Python `version` (`3.11.2`) is in `range`; false for a range that cannot be read.
 *
 * @example
 *   pythonSatisfies('>=3.10', '3.11.2'); // true
 *   pythonSatisfies('>=4', '3.11.2');    // false
 */
export function pythonSatisfies(range: string, version: string): boolean {
  const clauses = parseClauses(range);
  const release = semver.coerce(version)?.version;
  return clauses !== undefined && release !== undefined && clauses.every((clause) => holds(clause, release));
}
