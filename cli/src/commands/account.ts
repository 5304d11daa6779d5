import { dataOf } from '@svc/client';
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { DEVELOPER_MODE_HINT, validationError } from '../errors.js';
import { action } from '../program.js';

interface Organization {
  id: string;
  name: string;
  slug: string;
  scope: string;
  role: string;
  joined_at?: string;
}

type Mode = { account_mode: 'consumer'; developer_mode_available: boolean } | { account_mode: 'developer'; organization: Organization };

async function show(ctx: Context): Promise<void> {
  const mode = (await dataOf(ctx.client().api.GET('/api/v1/account/mode'))) as Mode;
  const text =
    mode.account_mode === 'developer'
      ? `Developer mode, in ${mode.organization.scope} (${mode.organization.name}) as ${mode.organization.role}.\nNext: svc pack new <name> --namespace ${mode.organization.slug}`
      : `Consumer mode: you install and run packs. To publish your own, ${DEVELOPER_MODE_HINT}.`;
  ctx.out.result(mode, text);
}

interface DeveloperOptions {
  orgSlug?: string;
  orgName?: string;
  invite?: string;
}

/** The body of `POST /account/developer-mode`: a new organization, or an invite to join one. */
function developerBody(options: DeveloperOptions): { access_code: string } | { organization: { slug: string; name: string } } {
  if (options.invite && (options.orgSlug || options.orgName)) throw validationError('Give either --invite or --org-slug/--org-name, not both', { code: 'OPTION_INVALID' });
  if (options.invite) return { access_code: options.invite.trim() };
  if (!options.orgSlug) throw validationError(`Developer mode needs an organization: ${DEVELOPER_MODE_HINT}`, { code: 'OPTION_INVALID' });
  return { organization: { slug: options.orgSlug, name: options.orgName ?? options.orgSlug } };
}

async function developer(ctx: Context, options: DeveloperOptions): Promise<void> {
  const data = await dataOf(ctx.client().api.POST('/api/v1/account/developer-mode', { body: developerBody(options) }));
  ctx.out.result(data, `${data.message}.\nNext: svc pack new <name> --namespace ${data.organization.slug}`);
}

async function orgs(ctx: Context): Promise<void> {
  const data = (await dataOf(ctx.client().api.GET('/api/v1/account/organizations'))) as { organizations: Organization[] };
  const lines = data.organizations.map((org) => `${org.scope.padEnd(24)} ${org.role.padEnd(7)} ${org.name}`);
  ctx.out.result(data, lines.length > 0 ? lines.join('\n') : `No organizations yet: ${DEVELOPER_MODE_HINT}.`);
}

export function registerAccountCommands(program: Command): void {
  const account = program.command('account').description('your account: its mode, developer mode, your organizations');
  account
    .command('show', { isDefault: true })
    .description('consumer or developer mode, and your first organization')
    .action(action((ctx) => show(ctx)));
  account
    .command('developer')
    .description('turn developer mode on: create an organization (--org-slug, --org-name) or join one (--invite)')
    .option('--org-slug <slug>', 'the new organization\'s slug (its namespace, @slug)')
    .option('--org-name <name>', 'the new organization\'s name (default: its slug)')
    .option('--invite <code>', 'an invite code you were sent, to join its organization')
    .action(action<DeveloperOptions>((ctx, _args, options) => developer(ctx, options)));
  account
    .command('orgs')
    .description('the organizations you belong to, with your role in each')
    .action(action((ctx) => orgs(ctx)));
}
