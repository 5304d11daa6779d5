export interface RenderedEmail {
  subject: string;
  text: string;
}

const field = (payload: Record<string, unknown>, name: string) => String(payload[name] ?? '');

/** What each outbox template says, from the payload the change that queued it wrote. */
const TEMPLATES: Record<string, (payload: Record<string, unknown>) => RenderedEmail> = {
  'password-changed': (p) => ({
    subject: 'Your svc password was changed',
    text: [
      `Hello${field(p, 'name') ? ` ${field(p, 'name')}` : ''},`,
      '',
      `The password of your svc account was changed at ${field(p, 'changed_at')}, and every session`,
      'of the account was signed out.',
      '',
      'If you did not change it, somebody else knows your password: sign in with the new one if',
      'you can and change it again, or ask your administrator for help.',
    ].join('\n'),
  }),
  'password-reset': (p) => ({
    subject: 'Choose a new svc password',
    text: [
      `Hello${field(p, 'name') ? ` ${field(p, 'name')}` : ''},`,
      '',
      'Somebody asked to choose a new password for the svc account of this address. If it was you,',
      'open this link and choose one:',
      '',
      `    ${field(p, 'link')}`,
      '',
      `The link works once, until ${field(p, 'expires_at')}. Choosing a new password signs the account`,
      'out everywhere.',
      '',
      'If you did not ask, ignore this e-mail: your password stays as it is.',
    ].join('\n'),
  }),
  'organization-invite': (p) => ({
    subject: `You are invited to ${field(p, 'organization')} on svc`,
    text: [
      `You are invited to join the organization ${field(p, 'organization')} (${field(p, 'scope')}) on svc as ${field(p, 'role')}.`,
      '',
      'To accept, sign in with this e-mail address and switch to developer mode with this invite code:',
      '',
      `    ${field(p, 'invite_id')}`,
      '',
      `(POST /api/v1/account/developer-mode with {"access_code": "${field(p, 'invite_id')}"}). The invite`,
      `can be used once, by this address only, until ${field(p, 'expires_at')}.`,
    ].join('\n'),
  }),
};

/** The subject and text of an outbox e-mail; throws for a template nobody wrote. */
export function renderEmail(template: string, payload: Record<string, unknown>): RenderedEmail {
  const render = TEMPLATES[template];
  if (!render) throw new Error(`Unknown e-mail template "${template}"`);
  return render(payload);
}
