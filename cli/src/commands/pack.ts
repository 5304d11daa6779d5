import { Option, type Command } from 'commander';
import { BUILD_FORMATS, DEFAULT_PYTHON, PACK_TEMPLATES, type BuildFormat, type PackTemplate } from '../choices.js';
import { LOG_LEVELS } from '../config.js';
import { action, booleanOption, integerOption } from '../program.js';
import type { DevOptions } from './pack-dev.js';
import type { ExecOptions } from './pack-exec.js';
import type { NewPackOptions } from './pack-new.js';
import type { PublishOptions } from './pack-publish.js';
import type { TestOptions } from './pack-test.js';

export function packTemplateOption(defaultTemplate: PackTemplate = 'basic'): Option {
  return new Option('--template <template>', 'what the pack starts with').choices(PACK_TEMPLATES).default(defaultTemplate);
}

/**
 * `svc pack …`. Each action loads the module that does its work when it runs: the pack toolchain
 * (manifest and schema checks, packaging, the runner pool) is never loaded by other commands.
 */
export function registerPackGroup(program: Command): Command {
  const pack = program.command('pack').description('write, check, run locally, build and publish packs of commands');
  pack
    .command('new')
    .description('make a new pack in the folder NAME')
    .argument('<name>', 'the pack name (kebab-case): also the folder')
    .addOption(packTemplateOption())
    .option('--namespace <namespace>', 'where it will be published (default: your personal namespace)')
    .option('--author <author>', 'the author, written in package.json and README.md')
    .option('--python [version]', `a Python pack, for this Python version or later (${DEFAULT_PYTHON})`)
    .action(action<NewPackOptions>(async (ctx, [name], options) => (await import('./pack-new.js')).newPack(ctx, name as string, options)));
  pack
    .command('dev')
    .description("serve the pack in this folder locally, run by the platform's own runner, reloaded on change")
    .option('--port <port>', 'port to listen on (default: dev.port, 8080)', integerOption('--port', 0, 65535))
    .option('--host <host>', 'address to listen on', 'localhost')
    .option('--persist', 'keep ctx.storage in .svc/dev-storage.json between runs', false)
    .option('--watch [enabled]', 'reload when files change (default: dev.reload, true)', booleanOption('--watch'))
    .option('--no-watch', 'do not reload on change')
    .addOption(new Option('--log-level <level>', 'pack and runner log lines shown (default: dev.log_level, debug)').choices(LOG_LEVELS))
    .option('--no-docs', 'do not serve /docs')
    .option('--docs-port <port>', 'also serve the docs on this port', integerOption('--docs-port', 0, 65535), 8124)
    .option('--skip-update-check', 'do not compare the CLI with the platform version (or SVC_SKIP_UPDATE_CHECK)')
    .action(action<DevOptions>(async (ctx, _args, options) => (await import('./pack-dev.js')).dev(ctx, options)));
  pack
    .command('test')
    .description("run the pack's tests (Node's test runner, or for a Python pack pytest or unittest; tests/ by default)")
    .argument('[tests...]', 'test files or folders (default: tests/)')
    .option('--coverage', 'report code coverage')
    .option('-v, --verbose', 'one line per test (spec reporter), and more detail')
    .option('--parallel', 'run test files in parallel')
    .option('--filter <pattern>', 'run only the tests whose name matches this pattern')
    .action(action<TestOptions>(async (ctx, [tests], options) => (await import('./pack-test.js')).packTest(ctx, (tests as string[]) ?? [], options)));
  pack
    .command('validate')
    .description("check a pack with the registry's own checks (manifest, input schemas, entries, limits)")
    .argument('[path]', 'the pack folder', '.')
    .option('--strict', 'treat warnings (missing descriptions, examples, open input schemas) as errors')
    .option('--fix', 'repair in pack.yaml what can be repaired, then check')
    .action(action<{ strict?: boolean; fix?: boolean }>(async (ctx, [path], options) => (await import('./pack-validate.js')).validate(ctx, path as string, options)));
  pack
    .command('build')
    .description('check the pack in this folder and write its package')
    .option('--output <dir>', 'where to write it (default: build.output_dir, ./dist)')
    .addOption(new Option('--format <format>', 'wheel (the default for Python packs), tar.gz (the default for JavaScript packs), or both (Python packs)').choices(BUILD_FORMATS))
    .option('--sign', 'sign the package with your Ed25519 key (default: build.sign_packages)')
    .action(action<{ output?: string; format?: BuildFormat; sign?: boolean }>(async (ctx, _args, options) => (await import('./pack-build.js')).build(ctx, options)));
  pack
    .command('publish')
    .description('publish a version of a pack to the registry (then `svc install` makes it active)')
    .argument('[package]', 'a package made by `svc pack build` (default: the pack in this folder)')
    .option('--registry <url>', 'the registry to publish to (default: registry.url)')
    .option('--token <token>', 'the token to publish with (default: the signed-in one)')
    .option('--dry-run', 'check everything and show what would be published, without uploading')
    .action(action<PublishOptions>(async (ctx, [packagePath], options) => (await import('./pack-publish.js')).publish(ctx, packagePath as string | undefined, options)));
  pack
    .command('exec')
    .description('run a command of the pack in this folder once: in your sandbox when it runs, else locally in the platform runner')
    .argument('<command>', 'the command, as namespace/name')
    .option('--arg <key=value>', 'an input value (repeatable)', (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option('--timeout <seconds>', 'stop the run after this many seconds', integerOption('--timeout', 1, 3600), 60)
    .action(action<ExecOptions>(async (ctx, [target], options) => (await import('./pack-exec.js')).exec(ctx, target as string, options)));
  pack
    .command('list-commands')
    .description('the commands of the pack in this folder')
    .action(action(async (ctx) => (await import('./pack-exec.js')).listCommands(ctx)));
  pack
    .command('describe')
    .description("a command's description, timeout and input schema (of this pack, or namespace/name of the platform)")
    .argument('<command>', 'a command of this pack, or namespace/name')
    .action(action(async (ctx, [name]) => (await import('./pack-exec.js')).describe(ctx, name as string)));
  pack
    .command('sync')
    .description('put the pack in a folder into your running sandbox (svc pack exec then runs it there)')
    .option('--path <path>', 'the pack folder', '.')
    .action(action<{ path: string }>(async (ctx, _args, options) => (await import('./pack-sync.js')).sync(ctx, options)));
  return pack;
}
