import { inject } from 'vitest';
import { startMemoryDatabasesFrom } from '../fresh-cluster.js';

startMemoryDatabasesFrom(inject('freshClusterDump'));
