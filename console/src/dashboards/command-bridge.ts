import { dataOf, parseCommand, SvcError, type Dashboard } from '@svc/client';
import { svc } from '../app/svc.js';

export interface BridgeError {
  code: string;
  message: string;
  status: number;
}

/**
 * What a mounted dashboard may ask the console for: runs of the commands of the packs it names
 * in `packDependencies`, as the viewer, and nothing else. The frame holds no credential; this
 * is the only way its requests reach the API.
 */
export class CommandBridge {
  readonly #allowed = new Map<string, Promise<boolean>>();

  constructor(
    private readonly dashboard: Pick<Dashboard, 'packDependencies'>,
    private readonly signedIn: boolean,
  ) {}

  /** Whether `command` belongs to one of the dashboard's packs (the registry says which pack a command is of). */
  #mayRun(namespace: string, name: string): Promise<boolean> {
    const key = `${namespace}/${name}`;
    let decided = this.#allowed.get(key);
    if (!decided) {
      decided = dataOf(svc.api.GET('/api/v1/commands/{namespace}/{name}', { params: { path: { namespace, name } } })).then(
        (command) => this.dashboard.packDependencies.some((dep) => dep.scope.replace(/^@/, '') === command.namespace && dep.name === command.pack),
        () => false,
      );
      this.#allowed.set(key, decided);
    }
    return decided;
  }

  async run(command: unknown, input: unknown): Promise<unknown> {
    if (!this.signedIn) throw refusal('AUTHENTICATION_REQUIRED', 401, 'Sign in to the console to run commands from a dashboard');
    if (typeof command !== 'string' || typeof input !== 'object' || input === null || Array.isArray(input)) throw refusal('VALIDATION_FAILED', 400, 'run(command, input): a "namespace/name" and an object');
    let path: { namespace: string; name: string };
    try {
      path = parseCommand(command);
    } catch {
      throw refusal('VALIDATION_FAILED', 400, `Not a command: ${command}`);
    }
    if (!(await this.#mayRun(path.namespace, path.name))) {
      throw refusal('PERMISSION_DENIED', 403, `This dashboard may only run commands of the packs it depends on, not ${command}`);
    }
    return svc.run(`${path.namespace}/${path.name}`, input as Record<string, unknown>);
  }
}

function refusal(code: string, status: number, message: string): BridgeError {
  return { code, status, message };
}

/** An error as the frame is told of it: what the platform said, never a stack. */
export function bridgeErrorOf(err: unknown): BridgeError {
  if (err instanceof SvcError) return { code: err.code, status: err.status, message: err.message };
  if (err && typeof err === 'object' && 'code' in err && 'message' in err) return err as BridgeError;
  return { code: 'INTERNAL_ERROR', status: 500, message: 'The console could not run that' };
}
