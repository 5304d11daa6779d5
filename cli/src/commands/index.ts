import { Command } from 'commander';
import { addGlobalOptions, addProgramOptions } from '../program.js';
import { CLI_VERSION } from '../version.js';
import { registerAccountCommands } from './account.js';
import { registerAuthCommands } from './auth.js';
import { registerConfigCommands } from './config.js';
import { registerDashboardCommands } from './dashboard.js';
import { registerMcpCommands } from './mcp.js';
import { registerPackGroup } from './pack.js';
import { registerPackCommands } from './packs.js';
import { registerProjectCommands } from './project.js';
import { registerRun } from './run.js';
import { registerSandboxCommands } from './sandbox.js';
import { registerScheduleCommands } from './schedule.js';
import { registerSecretsCommands } from './secrets.js';
import { registerStats } from './stats.js';
import { registerTaskCommands } from './task.js';

function leaves(command: Command): Command[] {
  return command.commands.length === 0 ? [command] : command.commands.flatMap(leaves);
}

/** The whole `svc` command tree, as the spec's table lists it. */
export function buildProgram(): Command {
  const program = new Command('svc')
    .description('svc: write, publish and run packs of commands, dashboards and MCP tools')
    .enablePositionalOptions()
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', '\nInstall or update svc from your platform, in the version it runs:\n  npm install -g <platform URL>/cli/svc-cli.tgz      (e.g. http://localhost:8080/cli/svc-cli.tgz)\nFirst steps: svc login, svc account, svc pack new <name>');
  addProgramOptions(program, CLI_VERSION);

  registerProjectCommands(program);
  registerPackGroup(program);
  registerStats(program);
  registerPackCommands(program);
  registerRun(program);
  registerTaskCommands(program);
  registerAuthCommands(program);
  registerAccountCommands(program);
  registerConfigCommands(program);
  registerSecretsCommands(program);
  registerMcpCommands(program);
  registerSandboxCommands(program);
  registerScheduleCommands(program);
  registerDashboardCommands(program);

  for (const leaf of leaves(program)) addGlobalOptions(leaf);
  return program;
}
