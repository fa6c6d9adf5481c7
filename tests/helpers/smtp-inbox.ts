import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// A real SMTP server on loopback (smtp-server) that keeps what it is sent: each message's envelope,
// raw text, subject (unfolded) and text body (its transfer encoding undone). For alert e-mail tests.

export type TMail = { from: string; to: string[]; raw: string; subject: string; text: string };

/** A message's text body as sent: its transfer encoding (quoted-printable or base64) undone. */
export function mailText(head: string, body: string): string {
  const encoding = /^Content-Transfer-Encoding: *(\S+)/im.exec(head)?.[1].toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding !== 'quoted-printable') return body;
  const bytes: number[] = [];
  const text = body.replace(/=\r?\n/g, ''); // soft line breaks
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '=' ? /^[0-9A-F]{2}/.exec(text.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A UTF-8 encoded-word subject (=?UTF-8?Q?…?= or ?B?) decoded; a plain one as it is. */
function decodeSubject(s: string): string {
  return s.replace(/=\?utf-8\?([qb])\?([^?]*)\?=\s*/gi, (_, enc: string, data: string) =>
    enc.toLowerCase() === 'b' ? Buffer.from(data, 'base64').toString('utf8') : mailText('Content-Transfer-Encoding: quoted-printable', data.replace(/_/g, ' ')),
  );
}

export async function startInbox(): Promise<{ url: string; mails: TMail[]; close: () => Promise<void> }> {
  const mails: TMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        const subject = decodeSubject(/^Subject: (.*(?:\r\n[ \t].*)*)/im.exec(raw)?.[1].replace(/\r\n[ \t]/g, ' ') ?? '');
        const [head, ...rest] = raw.split('\r\n\r\n');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject,
          text: mailText(head, rest.join('\r\n\r\n')),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}
