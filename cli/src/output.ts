import { createSpinner, type Spinner } from 'nanospinner';
import { CliError, EXIT_CODES } from './errors.js';

export type OutputFormat = 'text' | 'json';

export interface OutputOptions {
  format: OutputFormat;
  quiet: boolean;
  verbose: boolean;
  /** Whether progress may be drawn: stdout and stderr are terminals and colour is not refused. */
  terminal: boolean;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/** What `--output json` prints on success: exactly one of these per invocation. */
export interface SuccessEnvelope {
  success: true;
  command: string;
  data: unknown;
}

/** What `--output json` prints on failure. */
export interface FailureEnvelope {
  success: false;
  command: string;
  error: { kind: string; code: string | null; message: string; details: Record<string, unknown> | null; exit_code: number };
}

/** A piece of long work shown as a spinner on a terminal and not at all otherwise. */
export interface Progress {
  update(text: string): void;
  succeed(text?: string): void;
  fail(text?: string): void;
}

const SILENT_PROGRESS: Progress = { update() {}, succeed() {}, fail() {} };

/**
 * Everything `svc` says. In text mode results go to stdout and progress, notes and warnings to
 * stderr; in JSON mode stdout carries one envelope at the end and nothing else, and notes are
 * dropped unless `--verbose` sends them to stderr.
 */
export class Output {
  readonly format: OutputFormat;
  readonly #quiet: boolean;
  readonly #verbose: boolean;
  readonly #terminal: boolean;
  readonly #stdout: NodeJS.WritableStream;
  readonly #stderr: NodeJS.WritableStream;
  #spinner: Spinner | undefined;
  #result: { data: unknown; text?: string } | undefined;

  constructor(options: OutputOptions) {
    this.format = options.format;
    this.#quiet = options.quiet;
    this.#verbose = options.verbose;
    this.#terminal = options.terminal && options.format === 'text' && !options.quiet;
    this.#stdout = options.stdout ?? process.stdout;
    this.#stderr = options.stderr ?? process.stderr;
  }

  get json(): boolean {
    return this.format === 'json';
  }

  /** A line of information for a person (stderr); silent with `--quiet` and in JSON mode. */
  note(message: string): void {
    if (this.#quiet || this.json) return;
    this.#clearSpinner();
    this.#stderr.write(`${message}\n`);
  }

  /** Detail shown only with `--verbose`, on stderr in either mode. */
  debug(message: string): void {
    if (!this.#verbose) return;
    this.#clearSpinner();
    this.#stderr.write(`${message}\n`);
  }

  warn(message: string): void {
    if (this.json && !this.#verbose) return;
    this.#clearSpinner();
    this.#stderr.write(`warning: ${message}\n`);
  }

  /** Text printed to stdout as it comes (text mode only); the JSON envelope carries the data instead. */
  print(text: string): void {
    if (this.json) return;
    this.#clearSpinner();
    this.#stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /**
   * The command's result: `data` goes into the JSON envelope, `text` (default: `data` as
   * indented JSON) to stdout in text mode. Printed by `finish`.
   */
  result(data: unknown, text?: string): void {
    this.#result = { data, text };
  }

  progress(text: string): Progress {
    if (!this.#terminal) return SILENT_PROGRESS;
    this.#spinner?.stop();
    const spinner = createSpinner(text, { stream: this.#stderr as NodeJS.WriteStream }).start();
    this.#spinner = spinner;
    const end = (method: 'success' | 'error', message?: string) => {
      spinner[method](message === undefined ? undefined : { text: message });
      if (this.#spinner === spinner) this.#spinner = undefined;
    };
    return {
      update: (message) => spinner.update({ text: message }),
      succeed: (message) => end('success', message),
      fail: (message) => end('error', message),
    };
  }

  /** Prints the result (or the error) once, at the end of the invocation. */
  finish(command: string, error?: CliError): void {
    this.#spinner?.stop();
    this.#spinner = undefined;
    if (error) {
      this.#printError(command, error);
      return;
    }
    const result = this.#result ?? { data: null, text: '' };
    if (this.json) {
      const envelope: SuccessEnvelope = { success: true, command, data: result.data ?? null };
      this.#stdout.write(`${JSON.stringify(envelope)}\n`);
      return;
    }
    const text = result.text ?? (result.data === undefined || result.data === null ? '' : JSON.stringify(result.data, null, 2));
    if (text !== '') this.#stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  #printError(command: string, error: CliError): void {
    if (this.json) {
      const envelope: FailureEnvelope = {
        success: false,
        command,
        error: { kind: error.kind, code: error.code ?? null, message: error.message, details: error.details ?? null, exit_code: EXIT_CODES[error.kind] },
      };
      this.#stdout.write(`${JSON.stringify(envelope)}\n`);
      return;
    }
    this.#stderr.write(`error: ${error.message}\n`);
    const issues = error.details?.issues;
    if (Array.isArray(issues) && issues.length > 1) {
      for (const issue of issues as Array<{ field?: string; message?: string }>) this.#stderr.write(`  - ${issue.field ?? ''}: ${issue.message ?? ''}\n`);
    }
  }

  #clearSpinner(): void {
    this.#spinner?.clear();
  }
}
