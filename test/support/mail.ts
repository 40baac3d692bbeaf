import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  /** The whole message as sent (headers and body). */
  raw: string;
  subject: string;
  /** The first http(s) link in the body. */
  link: string | null;
}

export interface TestSmtp {
  /** `smtp://` URL of the server, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** Refuses the next `times` mails to `address` (a 451 at RCPT TO, as a busy server answers). */
  refuse(address: string, times: number): void;
  /** The next mail to `address` not handed out yet (waits up to `timeoutMs`). */
  next(address: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A real SMTP server in the test process (smtp-server): the service sends to it like to any other. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const handedOut = new Set<ReceivedMail>();
  const refusals = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const left = refusals.get(address.address.toLowerCase()) ?? 0;
      if (left === 0) return callback();
      refusals.set(address.address.toLowerCase(), left - 1);
      callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        // Quoted-printable soft line breaks ("=\r\n") would cut a long link in two.
        const raw = Buffer.concat(chunks)
          .toString('utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/g, '=');
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1] ?? '';
        const link =
          /https?:\/\/[^\s]+/.exec(
            raw
              .split(/\r?\n\r?\n/)
              .slice(1)
              .join('\n'),
          )?.[0] ?? null;
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()), raw, subject, link });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse: (address, times) => refusals.set(address.toLowerCase(), times),
    async next(address, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = received.find((m) => !handedOut.has(m) && m.to.includes(address.toLowerCase()));
        if (mail) {
          handedOut.add(mail);
          return mail;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
