export declare const PROCESS_NODE_FLAGS: readonly string[];
/** Environment every platform process is started with, unless the operator set it. */
export declare const PROCESS_ENV: Readonly<Record<string, string>>;
/** The flags that make a process write a V8 CPU profile into `dir` when it exits. */
export declare function cpuProfileFlags(dir: string): string[];
