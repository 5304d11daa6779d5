export declare const PROCESS_NODE_FLAGS: readonly string[];
/** The flags that make a process write a V8 CPU profile into `dir` when it exits. */
export declare function cpuProfileFlags(dir: string): string[];
