import { Command, Option } from 'commander';
import { Context, type CliIo, type GlobalOptions } from './context.js';
import type { OutputFormat } from './output.js';
import { validationError } from './errors.js';

/** One invocation's state, reached from any command of its tree. */
export interface Invocation {
  io: CliIo;
  context?: Context;
  /** The command being run, as typed: `pack build`. */
  commandName: string;
  /** Run when the invocation ends, however it ends (servers closed, children stopped). */
  cleanups: Array<() => Promise<void> | void>;
}

const invocations = new WeakMap<Command, Invocation>();

function rootOf(command: Command): Command {
  let current = command;
  while (current.parent) current = current.parent;
  return current;
}

export function bindInvocation(program: Command, invocation: Invocation): void {
  invocations.set(program, invocation);
}

export function invocationOf(command: Command): Invocation {
  const invocation = invocations.get(rootOf(command));
  if (!invocation) throw new Error('command run outside runCli');
  return invocation;
}

/** `pack build` for the leaf `build` under `pack`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}

const FORMATS: OutputFormat[] = ['text', 'json'];

function formatOption(flags: string): Option {
  return new Option(flags, 'output format: text, or json (one structured envelope; implies --non-interactive)').choices(FORMATS);
}

/** The global options on the program itself. */
export function addProgramOptions(program: Command, version: string): void {
  program
    .version(version, '-V, --version', 'print the version of svc')
    .option('-v, --verbose', 'show more detail (requests, steps) on stderr')
    .option('-q, --quiet', 'print only results and errors')
    .option('-c, --config <path>', 'config file (default ~/.config/svc/config.toml, or SVC_CONFIG)')
    .addOption(formatOption('-o, --output <format>'))
    .option('--non-interactive', 'never prompt; fail where a person would have been asked');
}

/**
 * The global options repeated on a command, so that they work after it too
 * (`svc uninstall @a/b --output json`). A command with an `--output` of its own (a folder) keeps
 * `-o` for the format.
 */
export function addGlobalOptions(command: Command): void {
  const has = (flag: string) => command.options.some((option) => option.long === flag || option.short === flag);
  if (!has('--verbose')) command.option('-v, --verbose', 'show more detail (requests, steps) on stderr');
  if (!has('--quiet')) command.option('-q, --quiet', 'print only results and errors');
  if (!has('--config')) command.option('-c, --config <path>', 'config file (default ~/.config/svc/config.toml, or SVC_CONFIG)');
  command.addOption(formatOption(has('--output') ? '-o <format>' : '-o, --output <format>'));
  if (!has('--non-interactive')) command.option('--non-interactive', 'never prompt; fail where a person would have been asked');
}

/** The leaf's value of a global option, else the program's. */
function globalsOf(command: Command): GlobalOptions {
  const own = command.opts();
  const program = rootOf(command).opts();
  const ownFormat = command.options.some((option) => option.long === '--output' && option.short === '-o') ? own.output : own.o;
  const json = own.json === true;
  return {
    verbose: Boolean(own.verbose ?? program.verbose),
    quiet: Boolean(own.quiet ?? program.quiet),
    config: own.config ?? program.config,
    output: json ? 'json' : (ownFormat ?? program.output ?? 'text'),
    nonInteractive: Boolean(own.nonInteractive ?? program.nonInteractive),
  };
}

export type Handler<O> = (ctx: Context, args: unknown[], options: O, command: Command) => Promise<void>;

/**
 * A commander action that builds the invocation's Context from the merged global options,
 * then runs `handler` with the positional arguments and the command's own options.
 */
export function action<O = Record<string, any>>(handler: Handler<O>) {
  return async (...params: unknown[]): Promise<void> => {
    const command = params.at(-1) as Command;
    const options = params.at(-2) as O;
    const args = params.slice(0, -2);
    const invocation = invocationOf(command);
    invocation.commandName = commandPath(command);
    const globals = globalsOf(command);
    invocation.context = await Context.create(invocation.io, globals, invocation.cleanups);
    await handler(invocation.context, args, options, command);
  };
}

/** Parses an integer option (`--port 8080`), refusing anything else. */
export function integerOption(name: string, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw validationError(`${name} must be an integer from ${min} to ${max}, not "${value}"`, { code: 'OPTION_INVALID' });
    return Number(value);
  };
}

/** Whether commander parsed `--no-x` or `--x false`-style booleans given as strings. */
export function booleanOption(name: string) {
  return (value: string): boolean => {
    const lower = value.toLowerCase();
    if (['true', '1', 'yes'].includes(lower)) return true;
    if (['false', '0', 'no'].includes(lower)) return false;
    throw validationError(`${name} must be true or false, not "${value}"`, { code: 'OPTION_INVALID' });
  };
}
