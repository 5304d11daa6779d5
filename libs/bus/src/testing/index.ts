export { testBusKinds, type TestBus, type TestBusKind } from './buses.js';
export { gate, waitFor } from './wait.js';
