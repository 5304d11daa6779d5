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

/**
 * The profile cut to the `seconds` in which its process was busiest: a profile covers the whole
 * life of its process (start, set-up, stop), and a load run's share of it is what a change to the
 * request path moves.
 */
export function busiestWindow(profile: CpuProfile, seconds: number): CpuProfile {
  const idle = new Set(profile.nodes.filter((node) => node.callFrame.functionName === IDLE).map((node) => node.id));
  const width = seconds * 1e6;
  const at: number[] = [];
  profile.timeDeltas.reduce((time, delta, i) => (at[i] = time + delta), 0);
  let best = { from: 0, to: 0, busy: -1 };
  let busy = 0;
  for (let from = 0, to = 0; to < at.length; to++) {
    if (!idle.has(profile.samples[to]!)) busy += profile.timeDeltas[to]!;
    while (at[to]! - at[from]! > width) {
      if (!idle.has(profile.samples[from]!)) busy -= profile.timeDeltas[from]!;
      from++;
    }
    if (busy > best.busy) best = { from, to, busy };
  }
  return { ...profile, samples: profile.samples.slice(best.from, best.to + 1), timeDeltas: profile.timeDeltas.slice(best.from, best.to + 1) };
}
