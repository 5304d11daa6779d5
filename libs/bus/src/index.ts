export * from './bus.js';
export { typedBus, type Bus, type EventHandler, type EventMessage, type Responder, type SubscriberQueue, type WorkHandler } from './typed-bus.js';
export { createAmqpBus, type AmqpBusOptions, type ReconnectOptions } from './amqp-bus.js';
export type { QueueType } from './amqp-topology.js';
export { destroyBrokerPrefix, destroyBusPrefix } from './amqp-cleanup.js';
export { createMemoryBus, type MemoryBusOptions } from './memory-bus.js';
export { createBus, type CreateBusOptions } from './create-bus.js';
export { topicMatches } from './topic.js';
export {
  DEFAULT_PREFETCH,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_DRAIN_TIMEOUT_MS,
  EPHEMERAL_QUEUE_MARK,
  ephemeralQueueName,
  isEphemeralQueue,
  type EphemeralName,
} from './names.js';
export { EventOutbox, eventDelivery, eventIdFor, outboxEvent, type EventOptions, type EventOutboxOptions, type OutboxWriter } from './event-outbox.js';
export { firstDeliveriesOf, handleOnce, type AfterCommit, type Transactions } from './handle-once.js';
export { inBatches, type BatchOptions } from './in-batches.js';
