import nodemailer, { type Transporter } from 'nodemailer';
import { env } from '@/lib/env';
import { processSingleton } from '@/lib/process-singleton';
import { mailtoRecipients } from './alert-target';
import type { TAlertPostResult } from './send-alert';

// An alert as e-mail, through the SMTP server of SMTP_URL (nodemailer: STARTTLS when the server
// offers it on smtp://, TLS from the start on smtps://), from ALERT_EMAIL_FROM: a connection per
// message (alerts are few). Never throws: the outcome is recorded on the alert as a POST's is —
// status 250 when the server accepted it for every recipient, 0 and the server's answer otherwise.

const MAX_ERROR_CHARS = 500;
const transports = processSingleton('alert-smtp', () => new Map<string, Transporter>());

function transport(url: string): Transporter {
  let t = transports.get(url);
  if (!t) {
    t = nodemailer.createTransport(url);
    transports.set(url, t);
  }
  return t;
}

export async function sendAlertEmail(input: { url: string; messageId: string; subject: string; text: string }): Promise<TAlertPostResult> {
  const at = new Date();
  const fail = (error: string): TAlertPostResult => ({ at, status: 0, error: error.slice(0, MAX_ERROR_CHARS) });
  if (!env.SMTP_URL) return fail('not sent: this console has no SMTP server (SMTP_URL)');
  const to = mailtoRecipients(input.url) ?? [];
  try {
    const info = await transport(env.SMTP_URL).sendMail({
      from: env.ALERT_EMAIL_FROM,
      to,
      subject: input.subject,
      text: input.text,
      messageId: `<${input.messageId}@giving-connect-console>`,
      headers: { 'X-Giving-Connect-Alert': input.messageId },
    });
    if (info.rejected?.length) return fail(`refused for ${info.rejected.length} of ${to.length} recipients: ${String(info.response ?? '')}`);
    return { at, status: 250, error: null };
  } catch (err) {
    const e = err as { message?: string; response?: string; code?: string };
    return fail(e.response || e.message || e.code || String(err));
  }
}
