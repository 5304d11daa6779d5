import { describe, expect, it } from 'vitest';
import { busiestWindow, packageOf, summarize, type CpuProfile } from './profile-summary.js';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

/** (root) → handle (express) → parse (ours); (root) → (idle); (root) → (garbage collector). */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 4, 5] },
    { id: 2, callFrame: frame('handle', 'file:///app/node_modules/express/lib/router.js', 9), children: [3] },
    { id: 3, callFrame: frame('parse', 'file:///app/gateway/dist/main.js', 41) },
    { id: 4, callFrame: frame('(idle)') },
    { id: 5, callFrame: frame('(garbage collector)') },
  ],
  samples: [2, 3, 3, 4, 5, 3, 4],
  timeDeltas: [100, 200, 300, 1000, 400, 500, 1000],
};

describe('a CPU profile summed up', () => {
  it('names the package of a frame: npm package (scoped too), Node built-in, our file, or the V8 frame', () => {
    expect(packageOf('file:///app/node_modules/.pnpm/x/node_modules/@redis/client/dist/a.js', 'f')).toBe('@redis/client');
    expect(packageOf('node:_http_server', 'f')).toBe('node:_http_server');
    expect(packageOf('file:///app/gateway/dist/main.js', 'f')).toBe('gateway/dist/main.js');
    expect(packageOf('', '(garbage collector)')).toBe('(garbage collector)');
  });

  it('sums self time apart from idle time, by package and by function, shares of the busy time', () => {
    const summary = summarize(profile);
    expect([summary.busyMicros, summary.idleMicros]).toEqual([1500, 2000]);
    expect(summary.byPackage).toEqual([
      { name: 'gateway/dist/main.js', micros: 1000, percent: (100 * 1000) / 1500 },
      { name: '(garbage collector)', micros: 400, percent: (100 * 400) / 1500 },
      { name: 'express', micros: 100, percent: (100 * 100) / 1500 },
    ]);
    expect(summary.byFunction[0]).toEqual({ name: 'parse gateway/dist/main.js:42', micros: 1000, percent: (100 * 1000) / 1500 });
  });

  it('folds each stack, root first, with its time, for a flame graph', () => {
    expect(summarize(profile).folded.sort()).toEqual(['(root);(garbage collector) 400', '(root);handle 100', '(root);handle;parse 1000']);
  });

  it('keeps only the top entries asked for', () => {
    expect(summarize(profile, 1).byPackage.map((s) => s.name)).toEqual(['gateway/dist/main.js']);
  });

  it('cuts a profile to its busiest stretch of the length asked for', () => {
    // Samples at 100, 300, 600, 1600, 2000, 2500, 3500 µs: from 1,600 to 2,500 µs, 1,400 µs in 1 ms busy.
    const window = busiestWindow(profile, 0.001);
    expect(window.samples).toEqual([4, 5, 3]);
    expect(summarize(window).busyMicros).toBe(900);
  });
});
