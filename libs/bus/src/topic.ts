/**
 * AMQP topic matching: words are separated by `.`, `*` matches exactly one word and `#` zero or
 * more. The memory adapter uses it so that its subscriptions route like RabbitMQ's.
 *
 * @example
 *   topicMatches('pack.*', 'pack.installed');        // true
 *   topicMatches('pack.*', 'pack.version.published'); // false
 *   topicMatches('#', 'anything.at.all');             // true
 */
export function topicMatches(pattern: string, routingKey: string): boolean {
  const words = pattern.split('.');
  const keys = routingKey.split('.');
  // `#` makes naive recursion exponential; remember each (word, key) position once.
  const seen = new Map<number, boolean>();

  const match = (w: number, k: number): boolean => {
    if (w === words.length) return k === keys.length;
    const id = w * (keys.length + 1) + k;
    const known = seen.get(id);
    if (known !== undefined) return known;
    const word = words[w];
    const result =
      word === '#'
        ? match(w + 1, k) || (k < keys.length && match(w, k + 1))
        : k < keys.length && (word === '*' || word === keys[k]) && match(w + 1, k + 1);
    seen.set(id, result);
    return result;
  };

  return match(0, 0);
}
