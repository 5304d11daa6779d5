import { z } from 'zod';
import { MAX_COMMANDS, MAX_NAME_LENGTH, MAX_PACKAGE_BYTES, NAME_PATTERN, NAMESPACE_PATTERN, parsePackRef, QUEUES, VISIBILITIES } from '@svc/pack-sdk';

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
/** A command as the catalog lists it. */
export const CommandSummary = z.object({
  namespace: z.string(),
  name: z.string(),
  pack: z.string(),
  version: z.string(),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()),
  output_schema: OutputSchema,
  annotations: CommandAnnotations.default({}),
  /** From a registry older than the field, none. */
  ui: CommandUi.nullable().default(null),
  output_format: z.string(),
  timeout: z.number().int(),
  /** `fast` answers inline; `medium` and `long` run as tasks (MCP: tools that may run as MCP tasks). */
  queue: z.enum(QUEUES),
  tags: z.array(z.string()),
});
export type CommandSummary = z.infer<typeof CommandSummary>;
export const ListedCommands = z.object({ commands: z.array(CommandSummary), total: z.number().int(), page: z.number().int(), pages: z.number().int() });

/**
 * The package (`.tar.gz`) of a pack version, base64-encoded, for a worker to unpack and run.
 * Callers check `sha256` and cache by `version_id`: a version's files never change.
 */
export const FETCH_PACKAGE_RPC = 'registry.package.fetch';
export const FetchPackageRequest = z.object({ version_id: z.uuid() });
export const FetchedPackage = z.object({ version_id: z.string(), sha256: z.string(), size_bytes: z.number().int(), tarball_base64: z.string() });
export type FetchedPackage = z.infer<typeof FetchedPackage>;
