import type { TestSmtpServer } from '@svc/testing';

/** The messages the SMTP fake has received for `address` so far. */
export function mailsTo(smtp: TestSmtpServer, address: string) {
  return smtp.received.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((to) => to?.value.some((v) => v.address === address)));
}

/** The `nth` password-reset link (1 is the first) mailed to `address`, once it arrives within 10 s. */
export async function resetLink(smtp: TestSmtpServer, address: string, nth = 1): Promise<URL> {
  const until = Date.now() + 10_000;
  for (;;) {
    const links = mailsTo(smtp, address)
      .filter((m) => m.subject === 'Choose a new svc password')
      .map((m) => /^ {4}(\S+)$/m.exec(m.text ?? '')?.[1]);
    if (links.length >= nth) return new URL(links[nth - 1]!);
    if (Date.now() > until) throw new Error(`No reset link number ${nth} to ${address} within 10 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
