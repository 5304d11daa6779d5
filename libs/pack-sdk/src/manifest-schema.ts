import {
  MAX_COMMANDS,
  MAX_DESCRIPTION_LENGTH,
  MAX_EGRESS_HOSTS,
  MAX_EXAMPLES,
  MAX_PATH_LENGTH,
  MAX_PYTHON_RANGE_LENGTH,
  MAX_RETRIES,
  MAX_TAG_LENGTH,
  MAX_TAGS,
  MAX_TITLE_LENGTH,
  MAX_TIMEOUT_SECONDS,
  MIN_TIMEOUT_SECONDS,
  QUEUES,
  RUNTIMES,
  MAX_CRON_LENGTH,
  MAX_TIMEZONE_LENGTH,
} from './limits.js';
import { MAX_PROPOSED_SCHEDULES } from './schedule.js';
import { DASHBOARD_NAME_PATTERN, EGRESS_HOST_PATTERN, MAX_NAME_LENGTH, MAX_SECRETS, MAX_SSH_TARGET_NAME_LENGTH, MAX_SSH_TARGETS, NAME_PATTERN, NAMESPACE_PATTERN, SECRET_NAME_PATTERN, SSH_TARGET_NAME_PATTERN, VISIBILITIES } from './names.js';

const description = { type: 'string', maxLength: MAX_DESCRIPTION_LENGTH } as const;

/**
 * The JSON Schema (draft 2020-12) of `pack.yaml`. The registry validates every upload with it;
 * editors and the CLI can use it too. Rules a schema cannot express (a real semver version,
 * unique command names, tool-name length, a compilable `input_schema`, examples that match it,
 * entries of the runtime's form inside the package, a readable `python` range) are checked by `parseManifest` and `inspectPackage`.
 */
export const PACK_MANIFEST_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'urn:svc:pack-manifest:1',
  title: 'svc pack manifest (pack.yaml)',
  type: 'object',
  additionalProperties: false,
  required: ['schema_version', 'pack', 'commands'],
  properties: {
    schema_version: { const: 1 },
    pack: {
      type: 'object',
      additionalProperties: false,
      required: ['namespace', 'name', 'version'],
      properties: {
        namespace: { type: 'string', pattern: NAMESPACE_PATTERN.source },
        name: { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH, pattern: NAME_PATTERN.source },
        version: { type: 'string', minLength: 5, maxLength: 64 },
        description,
        visibility: { enum: [...VISIBILITIES] },
      },
    },
    runtime: { enum: [...RUNTIMES] },
    python: { type: 'string', minLength: 1, maxLength: MAX_PYTHON_RANGE_LENGTH },
    commands: { type: 'array', minItems: 1, maxItems: MAX_COMMANDS, items: { $ref: '#/$defs/command' } },
    secrets: { type: 'array', maxItems: MAX_SECRETS, uniqueItems: true, items: { type: 'string', pattern: SECRET_NAME_PATTERN.source } },
    network: {
      type: 'object',
      additionalProperties: false,
      required: ['egress'],
      properties: {
        egress: { type: 'boolean' },
        hosts: { type: 'array', maxItems: MAX_EGRESS_HOSTS, items: { type: 'string', maxLength: 253, pattern: EGRESS_HOST_PATTERN } },
      },
    },
    schedules: { type: 'array', maxItems: MAX_PROPOSED_SCHEDULES, items: { $ref: '#/$defs/schedule' } },
    ssh_targets: {
      type: 'object',
      additionalProperties: false,
      required: ['allowed'],
      properties: {
        allowed: {
          type: 'array',
          maxItems: MAX_SSH_TARGETS,
          uniqueItems: true,
          items: { anyOf: [{ const: '*' }, { type: 'string', maxLength: MAX_SSH_TARGET_NAME_LENGTH, pattern: SSH_TARGET_NAME_PATTERN.source }] },
        },
      },
    },
  },
  $defs: {
    schedule: {
      type: 'object',
      additionalProperties: false,
      required: ['command', 'cron'],
      properties: {
        command: { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH, pattern: NAME_PATTERN.source },
        cron: { type: 'string', minLength: 1, maxLength: MAX_CRON_LENGTH },
        timezone: { type: 'string', minLength: 1, maxLength: MAX_TIMEZONE_LENGTH },
        input: { type: 'object' },
        description,
      },
    },
    command: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'entry', 'input_schema'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH, pattern: NAME_PATTERN.source },
        description,
        entry: { type: 'string', minLength: 1, maxLength: MAX_PATH_LENGTH },
        input_schema: { type: 'object' },
        output_schema: { type: 'object' },
        annotations: {
          type: 'object',
          additionalProperties: false,
          properties: {
            title: { type: 'string', minLength: 1, maxLength: MAX_TITLE_LENGTH },
            readOnlyHint: { type: 'boolean' },
            destructiveHint: { type: 'boolean' },
            idempotentHint: { type: 'boolean' },
            openWorldHint: { type: 'boolean' },
          },
        },
        ui: {
          type: 'object',
          additionalProperties: false,
          required: ['dashboard'],
          properties: { dashboard: { type: 'string', minLength: 3, maxLength: 50, pattern: DASHBOARD_NAME_PATTERN.source } },
        },
        timeout: { type: 'integer', minimum: MIN_TIMEOUT_SECONDS, maximum: MAX_TIMEOUT_SECONDS },
        retries: { type: 'integer', minimum: 0, maximum: MAX_RETRIES },
        queue: { enum: [...QUEUES] },
        tags: { type: 'array', maxItems: MAX_TAGS, items: { type: 'string', minLength: 1, maxLength: MAX_TAG_LENGTH } },
        examples: {
          type: 'array',
          maxItems: MAX_EXAMPLES,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['input'],
            properties: { description, input: { type: 'object' } },
          },
        },
      },
    },
  },
} as const;
