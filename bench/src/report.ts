import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Machine } from './machine.js';
import { median } from './stats.js';

/** One figure of the table: every run, the median, and the target it is held to. */
export interface Row {
  id: string;
  what: string;
  unit: string;
  runs: number[];
  /** The median against another figure, e.g. "21.3 % of B0". */
  ratio?: string;
  target: string;
  /** Undefined for figures without a target (the baseline, details). */
  met?: boolean;
}

export interface Report {
  machine: Machine;
  command: string;
  settings: string;
  loadAverage: { before: number[]; after: number[] };
  /** Share of the machine's CPU time the hypervisor gave other guests during the run (undefined where not known). */
  stolen?: number;
  minutes: number;
  rows: Row[];
  /** Further facts per benchmark (breakdowns, failures), one line each. */
  details: string[];
}

/** Everything below this line in BENCHMARKS.md is written by people and kept across runs. */
export const NOTES_MARK = '<!-- Notes below this line are kept when the suite rewrites the file. -->';

export function fmt(value: number): string {
  if (!Number.isFinite(value)) return '–';
  if (Math.abs(value) >= 100 || Number.isInteger(value)) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(1);
}

/** A share (0-1) as a percentage, or 'not known'. */
export function percentOrUnknown(share: number | undefined): string {
  return share === undefined ? 'not known' : `${fmt(100 * share)} %`;
}

function line(row: Row): string {
  const runs = row.runs.map(fmt).join(' · ');
  const met = row.met === undefined ? '' : row.met ? '**yes**' : '**no**';
  return `| ${row.id} | ${row.what} | ${runs} | ${fmt(median(row.runs))} ${row.unit} | ${row.ratio ?? ''} | ${row.target} | ${met} |`;
}

/** The results as a Markdown table, a row per figure. */
export function resultsTable(rows: Row[]): string {
  return ['| id | what | runs | median | ratio | target | met |', '|---|---|---|---|---|---|---|', ...rows.map(line)].join('\n');
}

function render(report: Report, notes: string): string {
  const { machine } = report;
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(' / ');
  return [
    '# Benchmarks',
    '',
    `Written by \`${report.command}\` (the suite in [\`bench/\`](bench/README.md)); ${fmt(report.minutes)} minutes.`,
    '',
    '## Machine',
    '',
    '| | |',
    '|---|---|',
    `| Cores | ${machine.cores} × ${machine.cpuModel} |`,
    `| Memory | ${machine.memoryGiB} GiB |`,
    `| Node | ${machine.node} |`,
    `| Date | ${machine.date} |`,
    `| Load average (1/5/15 min) | before ${load(report.loadAverage.before)}; after ${load(report.loadAverage.after)} |`,
    `| CPU time taken by the hypervisor for other guests during the run (steal) | ${percentOrUnknown(report.stolen)} |`,
    '',
    `Settings: ${report.settings}`,
    '',
    '## Results',
    '',
    'Each figure is the median of the runs listed beside it.',
    '',
    resultsTable(report.rows),
    '',
    ...report.details.map((d) => `- ${d}`),
    '',
    NOTES_MARK,
    '',
    notes,
  ].join('\n');
}

/** Writes the report, keeping the hand-written notes of the previous file. */
export function writeReport(path: string, report: Report): void {
  const previous = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const at = previous.indexOf(NOTES_MARK);
  // The blank lines after the mark are the render's: kept as they were, each rewrite added one.
  const notes = at >= 0 ? previous.slice(at + NOTES_MARK.length).replace(/^\n+/, '') : '';
  writeFileSync(path, render(report, notes));
}
