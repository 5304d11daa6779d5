import { z } from 'zod';
import { MAX_COMMANDS, MAX_PACKAGE_BYTES, QUEUES } from '@svc/pack-sdk/limits';
import { MAX_NAME_LENGTH, NAME_PATTERN, NAMESPACE_PATTERN, parsePackRef, VISIBILITIES } from '@svc/pack-sdk/names';
import { Timestamp } from './responses.js';

/** Multipart field that carries the package in `POST /api/v1/registry/packs`. */
export const PACKAGE_FIELD = 'package';
/** Room for the multipart boundaries and part headers around the package itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/** Largest request body of the upload route, which the gateway lets through. */
export const PACKAGE_UPLOAD_BODY_LIMIT_BYTES = MAX_PACKAGE_BYTES + MULTIPART_OVERHEAD_BYTES;

/** Largest page of the command catalog. */
export const COMMANDS_PAGE_LIMIT_MAX = 100;
export const COMMANDS_PAGE_LIMIT_DEFAULT = 20;
export const COMMAND_SEARCH_MAX = 100;

export const Namespace = z.string().regex(NAMESPACE_PATTERN, 'must be 2-39 of a-z, 0-9 and "-", without "@" and not starting or ending with "-"');
export const PackOrCommandName = z
  .string()
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`)
  .regex(NAME_PATTERN, 'must be made of a-z, 0-9 and "-"');
const TenantId = z.uuid('must be a tenant id (uuid)');

export const InstallPackBody = z.strictObject({
  name: z
    .string()
    .max(120)
    .refine((ref) => parsePackRef(ref) !== undefined, 'must be "@<namespace>/<pack>", e.g. "@acme/text-tools"'),
  version: z
    .string()
    .max(64)
    .regex(/^(latest|\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*)?)$/, 'must be a semver version such as 1.2.0, or "latest"')
    .default('latest'),
});

/** `POST /registry/command-names/check`: whether a pack's command names are free in its namespace. */
export const CommandNamesCheckBody = z.strictObject({
  namespace: Namespace,
  pack: PackOrCommandName,
  commands: z.array(PackOrCommandName).min(1).max(MAX_COMMANDS),
});

export const PackIdParam = z.uuid('must be a pack id (uuid)');

export const GrantBody = z.strictObject({ pack_namespace: Namespace, pack_name: PackOrCommandName, grantee_tenant_id: TenantId });

/** A boolean in a query string: `true` or `false`, nothing else. */
const QueryBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');

export const ListCommandsQuery = z.object({
  namespace: Namespace.optional(),
  /** Only the commands of the packs the caller's tenants installed (`GET /packs`), at the version installed. */
  installed: QueryBoolean.optional(),
  search: z.string().trim().max(COMMAND_SEARCH_MAX, `must be at most ${COMMAND_SEARCH_MAX} characters`).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(COMMANDS_PAGE_LIMIT_MAX).default(COMMANDS_PAGE_LIMIT_DEFAULT),
});

export const CommandPathParams = z.object({ namespace: Namespace, name: PackOrCommandName });

/**
 * Execution asks the registry for a command it is about to run: by `namespace` and command
 * `name` (REST), and also by `pack` when the caller named one (MCP tool names carry it).
 * `tenant_ids` are every tenant of the caller; a command they may not see is NOT_FOUND.
 * Unlisted packs are found, since this is access by exact path.
 */
export const RESOLVE_COMMAND_RPC = 'registry.command.resolve';
export const ResolveCommandRequest = z.object({
  namespace: z.string(),
  name: z.string(),
  pack: z.string().optional(),
  tenant_ids: z.array(TenantId),
  /** The tenant the run is for (the caller's own): a version it pinned its installation to is the one resolved. */
  tenant_id: TenantId.optional(),
});

/** A command's `output_schema` (null: none); from a registry older than the field, none. */
const OutputSchema = z.record(z.string(), z.unknown()).nullable().default(null);
/** A command's MCP tool annotations (pack.yaml `annotations`). */
export const CommandAnnotations = z.object({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

/** The dashboard that is a command's UI (pack.yaml `ui`): by name, in the pack's namespace. */
export const CommandUi = z.object({ dashboard: z.string() });
export type CommandUi = z.infer<typeof CommandUi>;

export const ResolvedCommand = z.object({
  namespace: z.string(),
  name: z.string(),
  description: z.string(),
  entry: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
  output_schema: OutputSchema,
  timeout: z.number().int(),
  retries: z.number().int(),
  queue: z.enum(QUEUES),
  pack: z.object({
    id: z.string(),
    namespace: z.string(),
    name: z.string(),
    version: z.string(),
    version_id: z.string(),
    owner_tenant_id: z.string(),
    visibility: z.enum(VISIBILITIES),
  }),
  /** Where the package's files are: ask `registry.package.fetch` with `version_id`. */
  package: z.object({ sha256: z.string(), size_bytes: z.number().int() }),
});
export type ResolvedCommand = z.infer<typeof ResolvedCommand>;

/** The commands listed for the caller's tenants, as `GET /api/v1/commands` lists them (MCP `tools/list`). */
export const LIST_COMMANDS_RPC = 'registry.command.list';
export const ListCommandsRequest = ListCommandsQuery.extend({ tenant_ids: z.array(TenantId), tenant_id: TenantId.optional(), installed: z.boolean().optional() });

/**
 * The package (`.tar.gz`) of a pack version, base64-encoded, for a worker to unpack and run.
 * Callers check `sha256` and cache by `version_id`: a version's files never change.
 */
export const FETCH_PACKAGE_RPC = 'registry.package.fetch';
export const FetchPackageRequest = z.object({ version_id: z.uuid() });
export const FetchedPackage = z.object({ version_id: z.string(), sha256: z.string(), size_bytes: z.number().int(), tarball_base64: z.string() });
export type FetchedPackage = z.infer<typeof FetchedPackage>;

/** A command as the catalog lists it (`GET /api/v1/commands`, MCP `tools/list`). */
export const CommandSummary = z
  .object({
    namespace: z.string(),
    name: z.string(),
    pack: z.string().meta({ description: 'The pack\'s name.' }),
    version: z.string().meta({ description: 'The active version of the pack (semver).' }),
    description: z.string(),
    input_schema: z.record(z.string(), z.unknown()).meta({ description: 'The JSON Schema (draft 2020-12, or draft-07 by `$schema`) a run\'s input must satisfy.' }),
    output_schema: OutputSchema.meta({ description: 'The JSON Schema a successful run\'s result satisfies (checked after each run); null when the command declares none. Over MCP, the tool\'s `outputSchema`.' }),
    annotations: CommandAnnotations.default({}).meta({ description: 'Hints for agents (MCP tool annotations); absent ones take the protocol\'s defaults.' }),
    ui: CommandUi.nullable()
      .default(null)
      .meta({
        description:
          'The dashboard that is the command\'s UI (`ui` in `pack.yaml`): its name (its slug), in the pack\'s namespace; null for none. Over MCP, the tool links it as an MCP App (`_meta.ui.resourceUri`).',
      }),
    output_format: z.literal('json'),
    timeout: z.number().int().meta({ description: 'Seconds.' }),
    queue: z.enum(QUEUES).meta({ description: '`fast` answers inline; `medium` and `long` run as tasks (over MCP, tools that may run as MCP tasks).' }),
    tags: z.array(z.string()),
  })
  .meta({ id: 'CommandSummary' });
export type CommandSummary = z.infer<typeof CommandSummary>;

/** One command, `GET /api/v1/commands/{namespace}/{name}`: the summary with `retries` and `examples`. */
export const Command = CommandSummary.extend({
  retries: z.number().int().min(0),
  examples: z.array(z.object({ description: z.string(), input: z.record(z.string(), z.unknown()).meta({ description: 'An input that satisfies `input_schema`.' }) })),
}).meta({ id: 'Command' });
export type Command = z.infer<typeof Command>;

/** `GET /api/v1/commands` and `registry.command.list`: a page of the catalog (over HTTP the page's place is also in `pagination`, beside `data`). */
export const ListedCommands = z.object({ commands: z.array(CommandSummary), total: z.number().int(), page: z.number().int(), pages: z.number().int() });

export const PublishedPack = z
  .object({
    id: z.uuid(),
    namespace: z.string(),
    name: z.string(),
    version: z.string(),
    version_id: z.uuid(),
    visibility: z.enum(VISIBILITIES),
    description: z.string(),
    commands: z.array(z.string()),
    size_bytes: z.number().int(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    signature: z
      .object({
        algorithm: z.literal('ed25519'),
        key_fingerprint: z.string().meta({ description: '`SHA256:` and the base64 SHA-256 of the public key (DER), as OpenSSH prints fingerprints.' }),
      })
      .nullable()
      .meta({ description: 'The verified signature the package was published with; null when it was sent unsigned.' }),
  })
  .meta({ id: 'PublishedPack' });
export type PublishedPack = z.infer<typeof PublishedPack>;

/** `POST /api/v1/registry/packs`. */
export const PackPublishResult = z.object({ pack: PublishedPack, message: z.string() });

export const InstalledPack = z
  .object({
    id: z.uuid(),
    name: z.string(),
    namespace: z.string(),
    version: z.string().meta({ description: 'The version the installation runs: the pinned one, else the pack\'s active one.' }),
    visibility: z.enum(VISIBILITIES).meta({ description: 'That version\'s visibility.' }),
    commands: z.number().int().meta({ description: 'How many commands that version has.' }),
    installed_at: Timestamp,
    status: z
      .enum(['active', 'unavailable'])
      .meta({ description: '`unavailable`: the tenant may no longer reach that version (a grant taken back, a pack made private); its commands do not run until it is reinstalled or becomes reachable again.' }),
    pinned: z.boolean().meta({ description: 'True when pinned to `version`; false when following the pack\'s active version.' }),
  })
  .meta({ id: 'InstalledPack' });
export type InstalledPack = z.infer<typeof InstalledPack>;

/** `GET /api/v1/packs/installed`. */
export const InstalledPackList = z.object({ packs: z.array(InstalledPack) });
export type InstalledPackList = z.infer<typeof InstalledPackList>;

/** `POST /api/v1/packs/install`. */
export const PackInstallResult = z.object({
  pack: z.object({
    id: z.uuid(),
    namespace: z.string(),
    name: z.string(),
    version: z.string().meta({ description: 'The version the installation runs.' }),
    commands: z.array(z.string()),
    pinned: z.boolean().meta({ description: 'True when the installation is pinned to `version`.' }),
  }),
  message: z.string(),
});
export type PackInstallResult = z.infer<typeof PackInstallResult>;

/** `POST /api/v1/registry/check-commands`: which of a pack's command names are free. */
export const CommandNamesCheck = z.object({
  namespace: z.string(),
  pack: z.string(),
  commands: z.array(
    z.object({
      name: z.string(),
      available: z.boolean(),
      taken_by: z.string().nullable().meta({ description: '`@namespace/pack` of the active pack that uses the name.' }),
    }),
  ),
});
export type CommandNamesCheck = z.infer<typeof CommandNamesCheck>;

/** A pack's grant to a tenant given (`granted`) or taken back (`revoked`). */
export const PackGranted = z.object({ granted: z.literal(true), timestamp: Timestamp });
export const PackRevoked = z.object({ revoked: z.literal(true), timestamp: Timestamp });
