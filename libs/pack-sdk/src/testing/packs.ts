import { createPackArchive } from '../archive.js';

export interface TestCommand {
  name: string;
  [field: string]: unknown;
}

/** A pack for tests; anything left out gets a valid default. */
export interface TestPack {
  namespace: string;
  name: string;
  version?: string;
  /** A string, so that tests can publish invalid values too. */
  visibility?: string;
  /** Commands of the pack; one named like the pack when absent. */
  commands?: TestCommand[];
  /** Files to add or replace; `null` leaves a file out. */
  files?: Record<string, string | null>;
  /** Top-level `pack.yaml` fields besides pack and commands (e.g. `network`). */
  manifest?: Record<string, unknown>;
}

/** The pack.yaml of `pack`, written as JSON (which is YAML too). */
function manifestOf(pack: TestPack): { commands: Array<{ entry: string }> } & Record<string, unknown> {
  return {
    ...pack.manifest,
    schema_version: 1,
    pack: { namespace: pack.namespace, name: pack.name, version: pack.version ?? '1.0.0', visibility: pack.visibility ?? 'public', description: `${pack.name} for tests` },
    commands: (pack.commands ?? [{ name: pack.name }]).map((command) => ({
      description: `The ${command.name} command`,
      entry: `commands/${command.name}.js`,
      input_schema: { type: 'object', properties: { text: { type: 'string' } } },
      ...command,
    })),
  };
}

/**
 * A `.tar.gz` package for `pack`, with an entry file per command that answers
 * `{ echoed: input }`, unless `files` says otherwise.
 */
export async function packageOf(pack: TestPack): Promise<Buffer> {
  return createPackArchive(filesOf(pack));
}

/** The files of `packageOf(pack)` by path, for tests that archive them with other tools. */
export function filesOf(pack: TestPack): Record<string, string> {
  const manifest = manifestOf(pack);
  const files: Record<string, string> = { 'pack.yaml': JSON.stringify(manifest, null, 2) };
  for (const command of manifest.commands) files[command.entry] = 'export default async (input) => ({ echoed: input });\n';
  for (const [path, content] of Object.entries(pack.files ?? {})) {
    if (content === null) delete files[path];
    else files[path] = content;
  }
  return files;
}
