import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from './index.js';

/**
 * The spec's table (Part 2, "Command-line client"): every command with its arguments and its
 * options, and the defaults commander knows (those read from the config file are not fixed here);
 * beside it the commands added since (`account`, `task`, `run --logs`).
 */
const SPEC: Record<string, { args?: string[]; options?: string[]; defaults?: Record<string, unknown> }> = {
  'project init': { args: ['name'], options: ['--with-dashboard', '--no-dashboard', '--template'], defaults: { template: 'default' } },
  'project add-pack': { options: ['--template', '--namespace'], defaults: { template: 'basic' } },
  'project add-dashboard': { options: ['--template'], defaults: { template: 'basic' } },
  'pack new': { args: ['name'], options: ['--template', '--namespace', '--author', '--python'], defaults: { template: 'basic' } },
  'pack dev': { options: ['--port', '--host', '--persist', '--watch', '--log-level', '--no-docs', '--docs-port', '--skip-update-check'], defaults: { host: 'localhost', persist: false, docs: true, docsPort: 8124 } },
  'pack test': { args: ['tests'], options: ['--coverage', '--verbose', '--parallel', '--filter'] },
  stats: { options: ['--json', '--reset'] },
  'pack validate': { args: ['path'], options: ['--strict', '--fix'] },
  'pack build': { options: ['--output', '--format', '--sign'] },
  'pack sync': { options: ['--path'], defaults: { path: '.' } },
  'pack publish': { args: ['package'], options: ['--registry', '--token', '--dry-run'] },
  install: { args: ['pack'], options: ['--version', '--force', '--no-deps'], defaults: { version: 'latest', deps: true } },
  uninstall: { args: ['pack'], options: ['--force', '--output'] },
  list: { options: ['--json', '--commands'] },
  run: { args: ['command', 'args'], options: ['--json', '--raw', '--async', '--logs'] },
  'task get': { args: ['task-id'] },
  'task wait': { args: ['task-id'], options: ['--timeout'] },
  'task cancel': { args: ['task-id'] },
  'task logs': { args: ['task-id'] },
  'task list': { options: ['--status', '--limit'], defaults: { limit: 20 } },
  'account show': {},
  'account developer': { options: ['--org-slug', '--org-name', '--invite'] },
  'account orgs': {},
  login: { options: ['--token', '--browser', '--config'], defaults: { browser: true } },
  logout: {},
  status: { options: ['--json'] },
  'config get': { args: ['key'] },
  'config set': { args: ['key', 'value'] },
  'config list': {},
  'config path': {},
  'secrets set': { args: ['pack', 'name', 'value'] },
  'secrets list': { args: ['pack'] },
  'secrets remove': { args: ['pack', 'name'] },
  'secrets show': { args: ['pack'] },
  'mcp list-servers': {},
  'mcp list-tools': { args: ['server'], options: ['--tool', '--schema', '--json'] },
  'mcp call': { args: ['server', 'tool', 'json-args'], options: ['--timeout', '--json'], defaults: { timeout: 30 } },
  'mcp test': { args: ['server'], options: ['--verbose'] },
  'sandbox start': { options: ['--background', '--timeout'], defaults: { timeout: 3600 } },
  'sandbox stop': {},
  'sandbox status': {},
  'pack exec': { args: ['command'], options: ['--arg', '--timeout'], defaults: { timeout: 60 } },
  'pack list-commands': {},
  'pack describe': { args: ['command'] },
  'dashboard new': { args: ['name'], options: ['--template', '--namespace', '--author'], defaults: { template: 'basic' } },
  'dashboard dev': { options: ['--port', '--api-url', '--open'], defaults: { port: 3000, open: true } },
  'dashboard validate': { args: ['path'] },
  'dashboard build': { options: ['--output', '--minify', '--sourcemap'], defaults: { output: './dist', minify: true, sourcemap: false } },
  'dashboard publish': { options: ['--visibility', '--dry-run'] },
  'dashboard grant': { args: ['dashboard', 'organization'] },
  'dashboard revoke': { args: ['dashboard', 'organization'] },
  'dashboard delete': { args: ['dashboard'], options: ['--force', '-f', '--output'] },
  'dashboard share': { args: ['dashboard'], options: ['--expires'], defaults: { expires: 'never' } },
  // Beyond the spec's table: schedules (issue 38).
  'schedule create': { args: ['command'], options: ['--cron', '--timezone', '--input', '--overlap', '--catch-up', '--description', '--paused'] },
  'schedule list': { options: ['--page', '--limit'] },
  'schedule get': { args: ['id'] },
  'schedule pause': { args: ['id'] },
  'schedule resume': { args: ['id'] },
  'schedule trigger': { args: ['id'] },
  'schedule runs': { args: ['id'], options: ['--page', '--limit'] },
  'schedule delete': { args: ['id'] },
};

/** Global options every command takes (`-V` only the program itself). */
const GLOBAL = ['--verbose', '-v', '--quiet', '-q', '--config', '-c', '-o', '--non-interactive', '--help', '-h'];

function leaves(command: Command, path: string[] = []): Array<[string, Command]> {
  if (command.commands.length === 0) return [[path.join(' '), command]];
  return command.commands.flatMap((sub) => leaves(sub, [...path, sub.name()]));
}

function optionFlags(command: Command): string[] {
  return command.options.flatMap((option) => [option.long, option.short].filter((flag): flag is string => Boolean(flag)));
}

describe('svc --help against the spec', () => {
  const program = buildProgram();
  const tree = new Map(leaves(program));

  it('has exactly the commands of the spec', () => {
    expect([...tree.keys()].sort()).toEqual(Object.keys(SPEC).sort());
  });

  it.each(Object.entries(SPEC))('%s takes the arguments and options of the spec, and the global options', (path, spec) => {
    const command = tree.get(path)!;
    const help = command.helpInformation();
    for (const flag of [...(spec.options ?? []), ...GLOBAL]) {
      if (flag === '--help' || flag === '-h') expect(help).toContain('-h, --help');
      else expect(optionFlags(command), `${path} ${flag}`).toContain(flag);
      if (flag.startsWith('--') && flag !== '--help') expect(help, `${path} --help shows ${flag}`).toContain(flag);
    }
    expect(command.registeredArguments.map((argument) => argument.name())).toEqual(spec.args ?? []);
    for (const [name, value] of Object.entries(spec.defaults ?? {})) {
      // Commander sets defaults (a `--no-x` option's true included) when the option is added.
      expect(command.getOptionValue(name), `${path} default of ${name}`).toEqual(value);
    }
  });

  it('has the global options on the program, with --version', () => {
    expect(optionFlags(program)).toEqual(expect.arrayContaining(['-V', '--version', '-v', '--verbose', '-q', '--quiet', '-c', '--config', '-o', '--output', '--non-interactive']));
    const output = program.options.find((option) => option.long === '--output')!;
    expect(output.argChoices).toEqual(['text', 'json']);
  });

  it('keeps -o for the output format where --output is a folder', () => {
    for (const path of ['pack build', 'dashboard build']) {
      const command = tree.get(path)!;
      expect(command.options.find((option) => option.long === '--output')!.short).toBeUndefined();
      expect(command.options.find((option) => option.short === '-o')!.argChoices).toEqual(['text', 'json']);
    }
  });
});
