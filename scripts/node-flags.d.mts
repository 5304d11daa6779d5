export declare const PROCESS_NODE_FLAGS: readonly string[];
