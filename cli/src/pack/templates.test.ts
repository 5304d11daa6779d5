import { describe, expect, it } from 'vitest';
import { MAX_TOOL_NAME_LENGTH, parseManifest, toolName } from '@svc/pack-sdk';
import { packTemplateFiles, templateCommandNames } from './templates.js';

describe('template command names', () => {
  it('start with the pack name, so that two packs of one namespace do not collide', () => {
    const alpha = templateCommandNames({ namespace: 'ada', name: 'alpha' });
    const beta = templateCommandNames({ namespace: 'ada', name: 'beta' });
    expect(alpha).toEqual({ hello: 'alpha-hello', notes: 'alpha-notes', report: 'alpha-report', secret: 'alpha-check-secret' });
    expect(Object.values(alpha).filter((name) => Object.values(beta).includes(name))).toEqual([]);
  });

  it('are shortened so that the MCP tool name stays within its limit, and the manifest stays valid', () => {
    const input = { namespace: 'acme-labs', name: 'a-fairly-long-pack-name-here-x', author: undefined };
    const names = templateCommandNames(input);
    for (const name of Object.values(names)) expect(toolName(input.namespace, input.name, name).length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
    expect(names.secret).toBe('a-fairly-check-secret');
    const manifest = parseManifest(packTemplateFiles('full', input)['pack.yaml']!);
    expect(manifest.commands.map((command) => command.name)).toEqual([names.hello, names.notes, names.report, names.secret]);
  });
});

describe('the full template', () => {
  it("installs svc in CI from the platform's own URL, never a registry name that is someone else's", () => {
    const files = packTemplateFiles('full', { namespace: 'ada', name: 'tools', author: undefined });
    const [workflow] = Object.entries(files).filter(([path]) => path.startsWith('.github/workflows/'));
    expect(workflow?.[1]).toContain('npm install -g "${{ vars.SVC_URL }}/cli/svc-cli.tgz"');
    expect(Object.values(files).join('\n')).not.toMatch(/npm install -g @svc\/cli|npx svc/);
  });
});
