/** One email to one account holder. */
export interface Mail {
  to: string;
  subject: string;
  /** Plain text; every link in it is on a line of its own. */
  text: string;
}

/** Sends the account page's emails (links to verify an address, to reset a password). */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * With no SMTP server configured (`npm start` on a laptop): each email is written to the service's
 * log, so a local user can follow its link.
 */
export function logMailer(log: (line: string) => void): Mailer {
  return {
    async send({ to, subject, text }) {
      log(`Email to ${to} (no SMTP_URL configured, so it is written here): ${subject}\n${text}`);
    },
  };
}
