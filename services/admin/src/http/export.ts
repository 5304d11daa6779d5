import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { stringify } from 'csv-stringify';
import { EXPORT_COLUMNS, exportRow } from '../services/metrics.service.js';
import type { ActivityRow } from '../repositories/activity.repository.js';

/** Streams the export as a CSV download (the spec's columns, a header line first). */
export async function sendCsv(res: Response, rows: AsyncIterable<ActivityRow>): Promise<void> {
  res.setHeader('content-type', 'text/csv; charset=utf-8');
  res.setHeader('content-disposition', 'attachment; filename="svc-events.csv"');
  async function* records() {
    for await (const row of rows) yield exportRow(row);
  }
  // A failure half-way cannot become an error envelope any more: the download is cut short.
  await pipeline(Readable.from(records()), stringify({ header: true, columns: [...EXPORT_COLUMNS] }), res).catch(() => res.destroy());
}

/** Streams the export as `{data: [...]}`, one row at a time. */
export async function sendJson(res: Response, rows: AsyncIterable<ActivityRow>): Promise<void> {
  res.setHeader('content-type', 'application/json; charset=utf-8');
  async function* body() {
    yield '{"data":[';
    let first = true;
    for await (const row of rows) {
      yield `${first ? '' : ','}${JSON.stringify(exportRow(row))}`;
      first = false;
    }
    yield ']}';
  }
  await pipeline(Readable.from(body()), res).catch(() => res.destroy());
}
