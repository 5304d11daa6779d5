import { describe, expect, it } from 'vitest';
import { isPythonRange, pythonSatisfies } from './python-range.js';

describe('python ranges', () => {
  it.each([
    ['>=3.10', '3.11.2', true],
    ['>=3.10', '3.9.18', false],
    ['>=4', '3.11.2', false],
    ['>=3.10,<3.13', '3.12.1', true],
    ['>=3.10, <3.11', '3.11.0', false],
    ['~=3.11', '3.12.0', true],
    ['~=3.11', '4.0.0', false],
    ['~=3.11.2', '3.11.7', true],
    ['~=3.11.2', '3.12.0', false],
    ['==3.11.*', '3.11.7', true],
    ['==3.11.*', '3.12.0', false],
    ['==3.11', '3.11.0', true],
    ['==3.11', '3.11.2', false],
    ['!=3.11.*', '3.11.2', false],
    ['<=3.11', '3.11.2', false],
    ['>3.11', '3.11.2', true],
  ])('%s admits %s: %s', (range, version, admitted) => {
    expect(pythonSatisfies(range, version)).toBe(admitted);
  });

  it.each(['3.10', '>=', '>=three', '=>3.10', '~=3', '>=3.10.*', '>=3.10;<4', '>=3.10,'])('refuses %j', (range) => {
    expect(isPythonRange(range)).toBe(false);
    expect(pythonSatisfies(range, '3.11.2')).toBe(false);
  });
});
