export { testDatabaseKinds, type TestDatabase, type TestDatabaseKind } from './databases.js';
export { createOutboxTables } from './outbox-tables.js';
