import {
  Command,
  CommandNamesCheck,
  CommandNamesCheckBody,
  CommandSummary,
  GrantBody,
  InstalledPack,
  InstalledPackList,
  InstallPackBody,
  ListedCommands,
  ListCommandsQuery,
  Namespace,
  PACKAGE_FIELD,
  PackGranted,
  PackIdParam,
  PackInstallResult,
  PackOrCommandName,
  PackPublishResult,
  PackRevoked,
  PublishedPack,
} from '@svc/contracts';
import { componentSchemas, dataResponse, envelope, errorResponse, fromZod, jsonBody, jsonResponse, object, pathParameter, queryParameters, ref, string, type OpenApiFragment } from '@svc/openapi';
import { MAX_PACKAGE_BYTES, PUBLIC_KEY_FIELD, SIGNATURE_FIELD } from '@svc/pack-sdk';

const notOwner = (what: string) => errorResponse(`\`PERMISSION_DENIED\`: developer mode is required (\`details.reason: developer_mode_required\`), or the caller may see the pack but does not own it, so may not ${what} it.`);
const packNotFound = errorResponse('`NOT_FOUND`: no such pack, or one the caller may not see.');

const grantBody = jsonBody(fromZod(GrantBody));
const grantErrors = {
  400: errorResponse('`VALIDATION_FAILED`: a malformed field.'),
  403: notOwner('manage grants of'),
  404: packNotFound,
};

/** Packs: publication, install, uninstall, grants and the command catalog. */
export const registryOpenApi: OpenApiFragment = {
  service: 'registry',
  tags: [
    { name: 'Packs', description: 'Publishing, installing and removing packs, and access grants.' },
    { name: 'Commands', description: 'The command catalog and command runs.' },
  ],
  schemas: componentSchemas(CommandSummary, Command, PublishedPack, InstalledPack),
  paths: {
    '/api/v1/registry/command-names/check': {
      post: {
        operationId: 'checkCommandNames',
        summary: 'Whether a pack\'s command names are free in its namespace',
        description: 'Command names are unique among the active packs of a namespace; a name another pack uses would make publishing (or releasing) this pack fail with `COMMAND_NAME_TAKEN`. The pack\'s own names never clash with it. `svc pack publish --dry-run` asks this.',
        tags: ['Packs'],
        requestBody: jsonBody(fromZod(CommandNamesCheckBody), 'The namespace, the pack and its command names.'),
        responses: {
          200: dataResponse(
            'Each name, free or taken (by which pack).',
            CommandNamesCheck,
          ),
          400: errorResponse('`VALIDATION_FAILED`: a malformed namespace, pack or command name, no names or more than a pack may have.'),
          403: errorResponse('`PERMISSION_DENIED` (`details.reason: namespace_not_owned`): the namespace is neither the caller\'s personal one nor one of their organizations.'),
        },
      },
    },
    '/api/v1/registry/packs': {
      post: {
        operationId: 'publishPack',
        summary: 'Publish a pack version',
        description: 'Stores an immutable version; `POST /api/v1/packs/install` makes it active. The checks run in a fixed order and the first problem answers.',
        tags: ['Packs'],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: object(
                {
                  [PACKAGE_FIELD]: string({ format: 'binary', description: `The package: a .tar.gz with pack.yaml at its root, or for a Python pack (\`runtime: python\`) also a wheel with pack.yaml in its .dist-info folder; at most ${MAX_PACKAGE_BYTES} bytes.` }),
                  [SIGNATURE_FIELD]: string({ maxLength: 200, description: 'Ed25519 signature of the package\'s bytes, base64 (`svc pack build --sign`). With `public_key`, or neither.' }),
                  [PUBLIC_KEY_FIELD]: string({ maxLength: 200, description: 'The signer\'s Ed25519 public key, DER (SubjectPublicKeyInfo), base64.' }),
                },
                { optional: [SIGNATURE_FIELD, PUBLIC_KEY_FIELD] },
              ),
              encoding: { [PACKAGE_FIELD]: { contentType: 'application/gzip, application/zip' } },
            },
          },
        },
        responses: {
          201: dataResponse('Published.', PackPublishResult),
          400: errorResponse('`PACKAGE_INVALID`, `PACKAGE_PATH_INVALID`, `MANIFEST_INVALID` (also a Python pack whose `python:` range the platform\'s Python cannot meet: `details.field: python`, `details.platform_python`), `INPUT_SCHEMA_INVALID` or `ENTRY_MISSING`; `details.field`, `details.issue` and `details.issues` say what. `SIGNATURE_INVALID`: a signature was sent that does not verify, or only one of its two fields.'),
          403: errorResponse('`PERMISSION_DENIED`: developer mode is required, or the namespace is not the caller\'s (`details.reason`).'),
          409: errorResponse('`VERSION_EXISTS`, or `COMMAND_NAME_TAKEN` by another active pack of the namespace.'),
          413: errorResponse('`PAYLOAD_TOO_LARGE`: the package, or its unpacked files, are too large (`details.limit_bytes` or `details.limit_files`).'),
        },
      },
    },
    '/api/v1/packs/install': {
      post: {
        operationId: 'installPack',
        summary: 'Install a pack into the caller\'s tenant, or release a version of one\'s own pack',
        description:
          'Two operations on one path, chosen by who calls. **A pack the caller\'s tenants do not own**, which the caller can see: installed into the caller\'s own (personal) tenant, by any signed-in user; `version: "latest"` (the default) follows the pack\'s active version, a version number pins the installation to that published version (which must be reachable by its own visibility), and installing again moves the pin. **A pack of one of the caller\'s tenants**: the release of a published version (developer mode), which becomes the pack\'s active version for every caller; `latest` is the highest release.',
        tags: ['Packs'],
        requestBody: jsonBody(fromZod(InstallPackBody)),
        responses: {
          200: dataResponse(
            'Installed, re-pinned, released (upgraded, rolled back), or already so.',
            PackInstallResult,
          ),
          400: errorResponse('`VALIDATION_FAILED`: a malformed name or version.'),
          403: errorResponse('`PERMISSION_DENIED` (`details.reason: developer_mode_required`): releasing a version of one\'s own pack needs developer mode.'),
          404: errorResponse('`NOT_FOUND`: no such pack or version, or one the caller may not see.'),
        },
      },
    },
    '/api/v1/packs': {
      get: {
        operationId: 'listInstalledPacks',
        summary: 'The installed packs of every tenant the caller belongs to',
        description: 'Packs the caller\'s tenants installed, their own packs\' released versions included, with the version each installation runs.',
        tags: ['Packs'],
        responses: { 200: dataResponse('The packs.', InstalledPackList) },
      },
    },
    '/api/v1/packs/{pack_id}': {
      delete: {
        operationId: 'uninstallPack',
        summary: 'Remove the caller\'s installation of a pack, or the published pack itself',
        description:
          'Chosen by who calls. **A pack the caller\'s tenants do not own**: removes the caller\'s tenant\'s installation; the pack stays published for everyone else. **A pack of one of the caller\'s tenants** (developer mode): the spec\'s uninstall, removing the pack with every version, command, grant, every tenant\'s installation and the package files.',
        tags: ['Packs'],
        parameters: [pathParameter('pack_id', fromZod(PackIdParam), 'The pack\'s id.')],
        responses: {
          200: dataResponse('Removed.', ref('Message')),
          403: errorResponse('`PERMISSION_DENIED`: removing one\'s own published pack needs developer mode (`details.reason: developer_mode_required`); a pack the caller may see but neither owns nor has installed may not be removed (`not_pack_owner`).'),
          404: errorResponse('`NOT_FOUND`: no pack has this id (an unknown or malformed one), or the caller cannot see it.'),
        },
      },
    },
    '/api/v1/registry/grants': {
      post: {
        operationId: 'grantPackAccess',
        summary: 'Give a tenant access to an organization-visibility pack',
        tags: ['Packs'],
        requestBody: grantBody,
        responses: { 200: dataResponse('Granted (again: the first `timestamp` is kept).', PackGranted), ...grantErrors },
      },
      delete: {
        operationId: 'revokePackAccess',
        summary: 'Take a grant back',
        description: 'The body is JSON, the same as the grant\'s: `pack_namespace`, `pack_name`, `grantee_tenant_id`.',
        tags: ['Packs'],
        requestBody: grantBody,
        responses: {
          200: dataResponse('Revoked.', PackRevoked),
          ...grantErrors,
          404: errorResponse('`NOT_FOUND`: no such pack or grant, or a pack the caller may not see.'),
        },
      },
    },
    '/api/v1/commands': {
      get: {
        operationId: 'listCommands',
        summary: 'The commands the caller\'s tenants may see',
        description: 'Public packs, the caller\'s own packs and packs granted to their organizations; unlisted packs are left out. Ordered by namespace, then name.',
        tags: ['Commands'],
        parameters: queryParameters(ListCommandsQuery, {
          namespace: 'Only this namespace (no `@`).',
          installed: '`true`: only the commands of the packs the caller\'s tenants installed (`GET /api/v1/packs`), at the version installed, unlisted ones included.',
          search: 'Matches name or description, case-insensitively and literally.',
          page: 'Page number; a page past the end is empty.',
          limit: 'Page size.',
        }),
        responses: {
          200: jsonResponse(
            'One page of the catalog, with the spec\'s `pagination` beside `data`.',
            envelope(ListedCommands, { pagination: ref('Pagination') }),
          ),
          400: errorResponse('`VALIDATION_FAILED`: a malformed query parameter.'),
        },
      },
    },
    '/api/v1/commands/{namespace}/{name}': {
      get: {
        operationId: 'getCommand',
        summary: 'A command\'s detail',
        tags: ['Commands'],
        parameters: [pathParameter('namespace', fromZod(Namespace), 'The namespace, without `@`.'), pathParameter('name', fromZod(PackOrCommandName), 'The command\'s name.')],
        responses: {
          200: dataResponse('The command, with `retries`, `queue` and `examples`.', Command),
          400: errorResponse('`VALIDATION_FAILED`: a malformed namespace or name.'),
          404: errorResponse('`NOT_FOUND`: no such command, or one the caller may not reach.'),
        },
      },
    },
  },
};
