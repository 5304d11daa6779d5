import type { Command } from 'commander';
import { registerPackBuild } from './pack-build.js';
import { registerPackDev } from './pack-dev.js';
import { registerPackExec } from './pack-exec.js';
import { registerPackNew } from './pack-new.js';
import { registerPackPublish } from './pack-publish.js';
import { registerPackTest } from './pack-test.js';
import { registerPackValidate } from './pack-validate.js';

export function registerPackGroup(program: Command): Command {
  const pack = program.command('pack').description('write, check, run locally, build and publish packs of commands');
  registerPackNew(pack);
  registerPackDev(pack);
  registerPackTest(pack);
  registerPackValidate(pack);
  registerPackBuild(pack);
  registerPackPublish(pack);
  registerPackExec(pack);
  return pack;
}
