import { describe, expect, it } from 'vitest';
import { topicMatches } from './topic.js';

describe('topicMatches', () => {
  it.each([
    ['pack.installed', 'pack.installed', true],
    ['pack.installed', 'pack.uninstalled', false],
    ['pack.*', 'pack.installed', true],
    ['pack.*', 'pack', false],
    ['pack.*', 'pack.version.published', false],
    ['*.installed', 'pack.installed', true],
    ['pack.#', 'pack', true],
    ['pack.#', 'pack.version.published', true],
    ['pack.#', 'package.installed', false],
    ['#', 'anything.at.all', true],
    ['#.published', 'pack.version.published', true],
    ['#.published', 'published', true],
    ['a.#.z', 'a.z', true],
    ['a.#.z', 'a.b.c.z', true],
    ['a.#.z', 'a.b.c', false],
    ['a.*.#', 'a', false],
    ['#.#.#.x', 'a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.x', true],
  ])('%s matches %s: %s', (pattern, key, expected) => {
    expect(topicMatches(pattern, key)).toBe(expected);
  });
});
