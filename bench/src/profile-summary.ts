/** A V8 CPU profile as `--cpu-prof` writes it (`.cpuprofile`). */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  /** Microseconds since the previous sample, one per sample. */
  timeDeltas: number[];
}

export interface Share {
  name: string;
  /** Microseconds spent in it (self time: not in what it called). */
  micros: number;
  /** Of the busy time. */
  percent: number;
}

export interface ProfileSummary {
  busyMicros: number;
  idleMicros: number;
  byPackage: Share[];
  byFunction: Share[];
  /** One line per distinct stack, root first, frames joined by `;`, then its microseconds: the folded format flame graph tools read. */
  folded: string[];
}

/** Frames V8 adds that are not code: time the thread waited, or could not attribute. */
const IDLE = '(idle)';

/** The package a frame's code belongs to: its npm package, a Node built-in, or the file of ours. */
export function packageOf(url: string, functionName: string): string {
  const npm = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url); // the last one: pnpm nests packages
  if (npm) return npm[1]!;
  if (url.startsWith('node:')) return url;
  if (!url) return functionName || '(native)';
  return url.replace(/^file:\/\//, '').split('/').slice(-3).join('/');
}

function shares(totals: Map<string, number>, busy: number, top: number): Share[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, micros]) => ({ name, micros, percent: (100 * micros) / busy }));
}

/** Self time by package and by function, and the folded stacks, of one profile. */
export function summarize(profile: CpuProfile, top = 20): ProfileSummary {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

  const perNode = new Map<number, number>();
  profile.samples.forEach((id, i) => perNode.set(id, (perNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

  let idleMicros = 0;
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const folded = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros);
  for (const [id, micros] of perNode) {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    if (functionName === IDLE) {
      idleMicros += micros;
      continue;
    }
    const pkg = packageOf(url, functionName);
    add(byPackage, pkg, micros);
    add(byFunction, `${functionName || '(anonymous)'} ${pkg}:${lineNumber + 1}`, micros);
    const stack: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) stack.push(nodes.get(at)!.callFrame.functionName || '(anonymous)');
    add(folded, stack.reverse().join(';'), micros);
  }
  const busyMicros = [...perNode.values()].reduce((sum, micros) => sum + micros, 0) - idleMicros;
  return {
    busyMicros,
    idleMicros,
    byPackage: shares(byPackage, busyMicros, top),
    byFunction: shares(byFunction, busyMicros, top),
    folded: [...folded.entries()].map(([stack, micros]) => `${stack} ${micros}`),
  };
}
