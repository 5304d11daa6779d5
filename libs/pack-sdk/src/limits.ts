/**
 * The explicit limits of the pack format. The registry enforces them at publish time; the CLI
 * can check them before uploading.
 */

/** Largest `.tar.gz` accepted, as uploaded (compressed). */
export const MAX_PACKAGE_BYTES = 10 * 1024 * 1024;
/** Largest total size of the files inside a package, once decompressed. */
export const MAX_UNPACKED_BYTES = 32 * 1024 * 1024;
/** Most files (directories not counted) in one package. */
export const MAX_PACKAGE_FILES = 1000;
/** Longest path of a file inside a package. */
export const MAX_PATH_LENGTH = 255;
/** Largest `pack.yaml`. */
export const MAX_MANIFEST_BYTES = 256 * 1024;
/** Most commands in one pack. */
export const MAX_COMMANDS = 100;
/** Longest MCP tool name, `<namespace>__<pack>__<command>` (MCP allows `[a-zA-Z0-9_-]{1,64}`). */
export const MAX_TOOL_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1000;
/** A command's `annotations.title` (the MCP tool's display name). */
export const MAX_TITLE_LENGTH = 200;
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 32;
export const MAX_EXAMPLES = 20;
/** Most host names a pack's `network.hosts` may list. */
export const MAX_EGRESS_HOSTS = 50;

/**
 * Longest array anywhere in a command's input, refused (400) before its schema runs; arrays
 * and objects nest at most 64 deep (`MAX_JSON_DEPTH` of `@svc/core`), within the 1 MiB body.
 */
export const MAX_INPUT_ARRAY_ITEMS = 10_000;

/** Command timeout bounds and default, in seconds. */
export const MIN_TIMEOUT_SECONDS = 1;
export const MAX_TIMEOUT_SECONDS = 3600;
export const DEFAULT_TIMEOUT_SECONDS = 30;
export const MAX_RETRIES = 5;

export const QUEUES = ['fast', 'medium', 'long'] as const;
/** What runs a pack's commands: Node (ES modules) or Python (functions `run(input, ctx)`). */
export const RUNTIMES = ['node', 'python'] as const;
export type Runtime = (typeof RUNTIMES)[number];
/** Longest `python:` range of a manifest (`>=3.10,<3.13`). */
export const MAX_PYTHON_RANGE_LENGTH = 100;
export type Queue = (typeof QUEUES)[number];

/**
 * The longest timeout each queue takes. `fast` commands answer inline on the HTTP request, so
 * they must be short; `medium` and `long` run as tasks.
 */
export const QUEUE_MAX_TIMEOUT_SECONDS: Record<Queue, number> = { fast: 30, medium: 300, long: MAX_TIMEOUT_SECONDS };

/** A schedule's cron expression and IANA time zone name, at most. */
export const MAX_CRON_LENGTH = 200;
export const MAX_TIMEZONE_LENGTH = 64;
