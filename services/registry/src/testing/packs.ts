import { createPackArchive } from '@svc/pack-sdk';

export interface TestCommand {
  name: string;
  description?: string;
  entry?: string;
  input_schema?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface TestPack {
  namespace: string;
  name: string;
  version?: string;
  visibility?: string;
  commands?: TestCommand[];
  /** Files to add or replace (`null` leaves a command's entry file out). */
  files?: Record<string, string | null>;
}

/** The pack.yaml of a test pack; JSON is YAML too. */
export function manifestOf(pack: TestPack): Record<string, unknown> {
  const commands = (pack.commands ?? [{ name: pack.name }]).map((command) => ({
    description: `The ${command.name} command`,
    entry: `commands/${command.name}.js`,
    input_schema: { type: 'object', properties: { text: { type: 'string' } } },
    ...command,
  }));
  return {
    schema_version: 1,
    pack: { namespace: pack.namespace, name: pack.name, version: pack.version ?? '1.0.0', visibility: pack.visibility ?? 'public', description: `${pack.name} for tests` },
    commands,
  };
}

/** A valid `.tar.gz` for `pack` (one command named like the pack unless given), with an entry file per command unless `files` says otherwise. */
export async function packageOf(pack: TestPack): Promise<Buffer> {
  const manifest = manifestOf(pack);
  const files: Record<string, string> = { 'pack.yaml': JSON.stringify(manifest, null, 2) };
  for (const command of manifest.commands as Array<{ entry: string }>) files[command.entry] = 'export default async (input) => input;\n';
  for (const [path, content] of Object.entries(pack.files ?? {})) {
    if (content === null) delete files[path];
    else files[path] = content;
  }
  return createPackArchive(files);
}
