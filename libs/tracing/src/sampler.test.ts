import { describe, expect, it } from 'vitest';
import * as base from '@opentelemetry/sdk-trace-base';
import { SAMPLERS } from './env.js';
import { samplerOf } from './sampler.js';

describe('the sampler OTEL_TRACES_SAMPLER names', () => {
  it('follows the parent of a parent-based sampler, and samples every root by default', () => {
    expect(samplerOf(base).toString()).toBe('ParentBased{root=AlwaysOnSampler, remoteParentSampled=AlwaysOnSampler, remoteParentNotSampled=AlwaysOffSampler, localParentSampled=AlwaysOnSampler, localParentNotSampled=AlwaysOffSampler}');
  });

  it('builds each of the specification\'s samplers, with the ratio where it takes one', () => {
    const built = Object.fromEntries(SAMPLERS.map((name) => [name, samplerOf(base, name, 0.25).toString()]));
    expect(built).toMatchObject({
      always_on: 'AlwaysOnSampler',
      always_off: 'AlwaysOffSampler',
      traceidratio: 'TraceIdRatioBased{0.25}',
      parentbased_always_on: expect.stringMatching(/^ParentBased\{root=AlwaysOnSampler,/),
      parentbased_always_off: expect.stringMatching(/^ParentBased\{root=AlwaysOffSampler,/),
      parentbased_traceidratio: expect.stringMatching(/^ParentBased\{root=TraceIdRatioBased\{0.25\},/),
    });
  });
});
