import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '@svc/testing';
import { adminToken, createOrganization, signUp } from './support/accounts.js';
import { client, type Call } from './support/client.js';
import { oneMode, startTestFleet, type TestFleet } from './support/fleet.js';

describe.each(oneMode('embedded'))('e-mail through an SMTP relay (%s infrastructure)', (mode) => {
  let smtp: TestSmtpServer;
  let fleet: TestFleet;
  let call: Call;
  let admin: string;

  /** The first message to `address` that arrives within 10 s. */
  async function mailTo(address: string): Promise<TestSmtpServer['received'][number]> {
    const until = Date.now() + 10_000;
    for (;;) {
      const mail = smtp.received.find((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((to) => to?.value.some((v) => v.address === address)));
      if (mail) return mail;
      if (Date.now() > until) throw new Error(`No e-mail to ${address} within 10 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  beforeAll(async () => {
    smtp = await startSmtpServer();
    fleet = await startTestFleet(mode, { smtpUrl: smtp.url });
    call = client(fleet.url);
    admin = await adminToken(call);
  });

  afterAll(async () => {
    await fleet?.stop();
    await smtp?.close();
  });

  it('tells a user their password was changed', async () => {
    const ada = await signUp(call, admin);
    const changed = await call('/api/v1/auth/change-password', { token: ada.token, body: { current_password: ada.password, new_password: 'a-new-password-1' } });
    expect(changed.status).toBe(200);
    const mail = await mailTo(ada.email);
    expect(mail.subject).toBe('Your svc password was changed');
    expect(mail.from?.value[0]?.address).toBe('no-reply@svc.test');
  });

  it('sends an invitation whose code lets the invitee join', async () => {
    const [owner, invitee] = [await signUp(call, admin), await signUp(call, admin)];
    const org = await createOrganization(call, owner);
    expect((await call(`/api/v1/organizations/${org.id}/invite`, { token: owner.token, body: { email: invitee.email } })).status).toBe(201);
    const mail = await mailTo(invitee.email);
    expect(mail.subject).toBe(`You are invited to ${org.name} on svc`);
    const code = /^ {4}(\S+)$/m.exec(mail.text ?? '')?.[1];
    expect(code).toBeDefined();
    const joined = await call('/api/v1/account/developer-mode', { token: invitee.token, body: { access_code: code } });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body.data.organization).toMatchObject({ id: org.id, slug: org.slug });
  });
});
