import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKinds, createOutboxTables, type TestDatabase } from '@svc/db/testing';
import { firstDeliveriesOf } from './handle-once.js';

describe.each(testDatabaseKinds())('firstDeliveriesOf on $name', (kind) => {
  let db: TestDatabase;
  let inbox: Awaited<ReturnType<typeof createOutboxTables>>['inbox'];

  beforeAll(async () => {
    db = await kind.open();
    ({ inbox } = await createOutboxTables(db.database.db, 'handle_once_test'));
  });
  afterAll(() => db?.dispose());

  it('keeps the messages of a batch not handled before, in order, an id twice in the batch once', async () => {
    const message = (messageId: string, n: number) => ({ messageId, name: 'thing.made', n });
    const [seen, a, b] = [randomUUID(), randomUUID(), randomUUID()];
    await firstDeliveriesOf(db.database.db, inbox, [message(seen, 0)]);
    const batch = [message(a, 1), message(seen, 2), message(b, 3), message(a, 4)];
    expect(await firstDeliveriesOf(db.database.db, inbox, batch)).toEqual([message(a, 1), message(b, 3)]);
  });

  it('takes ids and names whatever characters they hold (they travel as array parameters)', async () => {
    const odd = [`${randomUUID()},"{x}"\\ 'y'`, `${randomUUID()} NULL`, 'NULL', ''].map((messageId, n) => ({ messageId, name: 'thing.made, "odd"', n }));
    expect(await firstDeliveriesOf(db.database.db, inbox, odd)).toEqual(odd);
    expect(await firstDeliveriesOf(db.database.db, inbox, odd)).toEqual([]);
  });
});
