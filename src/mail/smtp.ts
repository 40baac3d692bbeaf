import nodemailer from 'nodemailer';
import type { Mailer } from './mailer.ts';

/**
 * Sends through the SMTP server of `SMTP_URL` (`smtp://user:password@host:587`, or `smtps://` for
 * TLS from the first byte) with nodemailer, from `MAIL_FROM`. A connection is pooled, so a burst of
 * sign-ups does not open one per email.
 */
export function smtpMailer(url: string, from: string): Mailer & { close(): void } {
  const transport = nodemailer.createTransport(url.includes('?') ? `${url}&pool=true` : `${url}?pool=true`);
  return {
    async send({ to, subject, text }) {
      await transport.sendMail({ from, to, subject, text });
    },
    close: () => transport.close(),
  };
}
