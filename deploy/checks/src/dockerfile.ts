/** One instruction of a Dockerfile: `COPY --from=build /a ./b` → `{keyword: 'COPY', args: '--from=build /a ./b'}`. */
export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  /** The image or stage it starts from, as written (`${NODE_IMAGE}`, `build`). */
  from: string;
  name?: string;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** `ARG`s before the first `FROM`, with their defaults. */
  globalArgs: Record<string, string>;
  stages: Stage[];
}

/** Joins continuation lines, drops comments and splits the file into its stages. */
export function parseDockerfile(text: string): Dockerfile {
  const logical = text
    .replace(/\\\r?\n(\s*#[^\n]*\n)*/g, ' ')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const result: Dockerfile = { globalArgs: {}, stages: [] };
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args: args.replace(/\s+/g, ' ') };
    if (instruction.keyword === 'FROM') {
      const [from = '', , name] = instruction.args.split(' ').filter((word) => !word.startsWith('--'));
      result.stages.push({ from, ...(name ? { name } : {}), instructions: [] });
      continue;
    }
    const stage = result.stages.at(-1);
    if (stage) {
      stage.instructions.push(instruction);
    } else if (instruction.keyword === 'ARG') {
      const [name = '', value = ''] = instruction.args.split('=');
      result.globalArgs[name] = value;
    }
  }
  return result;
}

/** The `[source…, destination]` of a COPY, without its flags. */
export function copyPaths(instruction: Instruction): { from?: string; sources: string[]; destination: string } {
  const words = instruction.args.split(' ');
  const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
  const paths = words.filter((w) => !w.startsWith('--'));
  return { ...(from ? { from } : {}), sources: paths.slice(0, -1), destination: paths.at(-1) ?? '' };
}

/** The exec-form arguments of CMD/ENTRYPOINT (`["node", "x.js"]`). */
export function execForm(instruction: Instruction): string[] {
  return JSON.parse(instruction.args) as string[];
}

/**
 * Whether `.dockerignore` keeps `path` out of the build context. Enough of Docker's rules for
 * our file: `**` spans folders, `*` stays within one, a pattern also covers what lies below it,
 * `!` re-includes, and the last matching line wins.
 */
export function ignoredBy(dockerignore: string, path: string): boolean {
  let ignored = false;
  for (const raw of dockerignore.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    const pattern = (negated ? line.slice(1) : line).replace(/^\/+/, '').replace(/\/+$/, '');
    const source = pattern
      .split('**')
      .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]'))
      .join('.*')
      .replace(/\.\*\//g, '(.*/)?');
    if (new RegExp(`^${source}(/.*)?$`).test(path)) ignored = !negated;
  }
  return ignored;
}
