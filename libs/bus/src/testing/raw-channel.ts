import amqp from 'amqplib';
import type { Channel } from 'amqplib';

/** A plain amqplib channel on `url`, to read the wire as the broker holds it and to misbehave the way the bus never does. */
export async function withRawChannel<T>(url: string, use: (channel: Channel) => Promise<T>): Promise<T> {
  const model = await amqp.connect(url);
  model.on('error', () => undefined);
  try {
    const channel = await model.createChannel();
    // A refused check closes the channel with an 'error' event; the rejected promise says enough.
    channel.on('error', () => undefined);
    return await use(channel);
  } finally {
    await model.close().catch(() => undefined);
  }
}
