import { Command, CommanderError } from 'commander';
import type { CliIo } from './context.js';
import { asCliError, CliError, EXIT_CODES } from './errors.js';
import { Output } from './output.js';
import { bindInvocation, type Invocation } from './program.js';
import { buildProgram } from './commands/index.js';

/** Commander's ways of ending that are not failures. */
const CLEAN_EXITS = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

/** The format asked for on the command line, read before commander parses it (for its own errors). */
function requestedFormat(argv: string[]): 'text' | 'json' {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--json' || arg === '--output=json' || arg === '-ojson') return 'json';
    if ((arg === '-o' || arg === '--output') && argv[i + 1] === 'json') return 'json';
  }
  return 'text';
}

export interface RunOptions {
  /** Settles when the user interrupts (SIGINT); the invocation then ends with exit code 130. */
  interrupted?: Promise<void>;
}

/**
 * Runs one invocation of `svc` (arguments after the program name) and resolves with its exit
 * code. It never exits the process itself; `main.ts` does.
 */
export async function runCli(argv: string[], io: CliIo, options: RunOptions = {}): Promise<number> {
  const program = buildProgram();
  const invocation: Invocation = { io, commandName: '', cleanups: [] };
  bindInvocation(program, invocation);
  configure(program, io);

  let failure: CliError | undefined;
  try {
    const parsed = program.parseAsync(argv, { from: 'user' });
    const interrupted = options.interrupted?.then(() => {
      throw new CliError('interrupted', 'Interrupted', { code: 'INTERRUPTED' });
    });
    await (interrupted ? Promise.race([parsed, interrupted]) : parsed);
  } catch (err) {
    if (err instanceof CommanderError) {
      if (CLEAN_EXITS.has(err.code) && err.exitCode === 0) return 0;
      failure = new CliError(err.code === 'commander.help' ? 'general' : 'validation', err.message.replace(/^error: /, ''), { code: 'USAGE' });
    } else {
      failure = asCliError(err);
    }
  } finally {
    for (const cleanup of invocation.cleanups.reverse()) {
      await Promise.resolve()
        .then(cleanup)
        .catch(() => {});
    }
  }

  const out = invocation.context?.out ?? new Output({ format: requestedFormat(argv), quiet: false, verbose: false, terminal: false, stdout: io.stdout, stderr: io.stderr });
  // Commander already wrote its own usage errors to stderr; JSON callers still get their envelope.
  if (failure?.code === 'USAGE' && !out.json) return EXIT_CODES[failure.kind];
  out.finish(invocation.commandName || 'svc', failure);
  return failure ? EXIT_CODES[failure.kind] : 0;
}

/** Every command of the tree throws instead of exiting, and writes to the invocation's streams. */
function configure(command: Command, io: CliIo): void {
  command.exitOverride();
  command.configureOutput({
    writeOut: (text) => io.stdout.write(text),
    writeErr: (text) => io.stderr.write(text),
  });
  for (const sub of command.commands) configure(sub, io);
}
