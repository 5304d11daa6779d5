export declare const PROCESS_NODE_FLAGS: readonly string[];
/** Environment every platform process is started with, unless the operator set it. */
export declare const PROCESS_ENV: Readonly<Record<string, string>>;
/** Further environment of a process that opens the embedded database (no `DATABASE_URL`). */
export declare const EMBEDDED_DATABASE_ENV: Readonly<Record<string, string>>;
/** `PROCESS_ENV`, `EMBEDDED_DATABASE_ENV` when `env` has no `DATABASE_URL`, then `env` itself. */
export declare function platformEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined>;
/** The flags that make a process write a V8 CPU profile into `dir` when it exits. */
export declare function cpuProfileFlags(dir: string): string[];
