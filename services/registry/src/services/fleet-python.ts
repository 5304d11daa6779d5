import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** Where workers look for an interpreter named without a folder (`SVC_PYTHON`), in this order. */
const PROGRAM_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin'];
const PROBE_TIMEOUT_MS = 10_000;

export interface FleetPythonOptions {
  /** The interpreter workers run Python packs on (`SVC_PYTHON`): a name or a path. Default `python3`. */
  interpreter?: string;
  /** Its version, when the registry runs elsewhere than the workers (`SVC_PYTHON_VERSION`); probed otherwise. */
  version?: string;
}

/**
 * The Python version the fleet runs Python packs on, which a pack's `python:` range must admit
 * to be published. Registry and workers run from one image, so unless `SVC_PYTHON_VERSION` says
 * otherwise the registry asks the same interpreter the workers use, once, when the first Python
 * pack is published. Null when there is none: Python packs cannot run on such a fleet.
 */
export class FleetPython {
  #version: Promise<string | null> | undefined;

  constructor(private readonly options: FleetPythonOptions = {}) {}

  version(): Promise<string | null> {
    this.#version ??= this.options.version ? Promise.resolve(this.options.version) : probe(this.options.interpreter ?? 'python3');
    return this.#version;
  }
}

function probe(interpreter: string): Promise<string | null> {
  const path = isAbsolute(interpreter) ? interpreter : PROGRAM_DIRS.map((dir) => join(dir, interpreter)).find((candidate) => existsSync(candidate));
  if (!path) return Promise.resolve(null);
  return new Promise((resolve) => {
    execFile(path, ['-I', '-S', '-c', 'import sys; print("%d.%d.%d" % sys.version_info[:3])'], { timeout: PROBE_TIMEOUT_MS, env: {} }, (error, stdout) => resolve(error ? null : stdout.trim()));
  });
}
