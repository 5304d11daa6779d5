import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NOTES_MARK, writeReport, type Report } from './report.js';

const report: Report = {
  machine: { cores: 2, cpuModel: 'AMD EPYC', memoryGiB: 23.5, node: 'v20.20.2', date: '2026-11-29T12:00:00.000Z' },
  command: 'npm run bench',
  settings: '3 runs of 5 s',
  loadAverage: { before: [1, 1, 1], after: [1, 1, 1] },
  minutes: 10.5,
  rows: [{ id: 'B0', what: 'bare Node', unit: 'req/s', runs: [1, 2, 3], target: 'baseline' }],
  details: [],
};

describe("the report's hand-written notes", () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('are kept as they were, one blank line after the mark, however often the file is rewritten', () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-bench-report-'));
    const path = join(dir, 'BENCHMARKS.md');
    writeFileSync(path, `# old\n\n${NOTES_MARK}\n\n\n\n## Notes\n\nA round.\n`);
    writeReport(path, report);
    const once = readFileSync(path, 'utf8');
    writeReport(path, report);
    writeReport(path, report);
    expect(readFileSync(path, 'utf8')).toBe(once);
    expect(once.endsWith(`${NOTES_MARK}\n\n## Notes\n\nA round.\n`)).toBe(true);
  });
});
