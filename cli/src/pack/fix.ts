import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import semver from 'semver';
import { isMap, isSeq, parseDocument, type Document } from 'yaml';
import { checkPackagePath, MANIFEST_FILE, QUEUE_MAX_TIMEOUT_SECONDS, queueForTimeout, DEFAULT_TIMEOUT_SECONDS, type Queue } from '@svc/pack-sdk';
import { readManifestText } from './project.js';

export interface Fix {
  field: string;
  from: unknown;
  to: unknown;
}

/** `My_Pack Name` → `my-pack-name`: the shape pack, command and namespace names must have. */
export function kebab(value: string): string {
  return value
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

type Path = Array<string | number>;

function change(doc: Document, fixes: Fix[], path: Path, to: unknown): void {
  const from = doc.getIn(path);
  if (from === to) return;
  doc.setIn(path, to);
  fixes.push({ field: path.join('.'), from, to });
}

function fixString(doc: Document, fixes: Fix[], path: Path, repair: (value: string) => string | undefined): void {
  const value = doc.getIn(path);
  if (typeof value !== 'string') return;
  const repaired = repair(value);
  if (repaired !== undefined && repaired !== '') change(doc, fixes, path, repaired);
}

function fixCommand(doc: Document, fixes: Fix[], index: number): void {
  const at = (key: string): Path => ['commands', index, key];
  fixString(doc, fixes, at('name'), kebab);
  fixString(doc, fixes, at('entry'), (entry) => checkPackagePath(entry).path);
  const timeout = doc.getIn(at('timeout'));
  const queue = doc.getIn(at('queue')) as Queue | undefined;
  const seconds = typeof timeout === 'number' ? timeout : DEFAULT_TIMEOUT_SECONDS;
  if (queue && QUEUE_MAX_TIMEOUT_SECONDS[queue] !== undefined && seconds > QUEUE_MAX_TIMEOUT_SECONDS[queue]) change(doc, fixes, at('queue'), queueForTimeout(seconds));
  const tags = doc.getIn(at('tags'));
  if (isSeq(tags)) {
    const values = tags.items.map((item) => String((item as { value?: unknown }).value ?? item).toLowerCase().trim());
    const unique = [...new Set(values.filter(Boolean))];
    if (unique.join('\u0000') !== values.join('\u0000')) change(doc, fixes, at('tags'), unique);
  }
}

/**
 * Repairs what can be repaired in `pack.yaml` without guessing intent, keeping its comments and
 * layout: `schema_version`, an `@` before the namespace, names that are not kebab-case, a version
 * that semver can coerce (`1.2` → `1.2.0`), entries written `./x.js`, a queue too short for the
 * timeout (the shortest that fits), tags in upper case or twice. Returns what it changed.
 */
export async function fixManifest(packDir: string): Promise<Fix[]> {
  const doc = parseDocument(await readManifestText(packDir), { uniqueKeys: true });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return [];
  const fixes: Fix[] = [];
  if (doc.get('schema_version') !== 1) change(doc, fixes, ['schema_version'], 1);
  fixString(doc, fixes, ['pack', 'namespace'], (value) => kebab(value.replace(/^@/, '')));
  fixString(doc, fixes, ['pack', 'name'], kebab);
  fixString(doc, fixes, ['pack', 'version'], (value) => (semver.valid(value) ? undefined : (semver.coerce(value)?.version ?? undefined)));
  const commands = doc.get('commands');
  if (isSeq(commands)) commands.items.forEach((_item, index) => fixCommand(doc, fixes, index));
  if (fixes.length > 0) await writeFile(join(packDir, MANIFEST_FILE), doc.toString());
  return fixes;
}
