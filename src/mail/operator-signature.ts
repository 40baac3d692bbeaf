import type { OperatorSettings } from '../config.ts';
import type { Mailer } from './mailer.ts';

/** Every email ends saying who sent it and where to write, each link on a line of its own. */
export function withOperatorSignature(mailer: Mailer, operator: OperatorSettings): Mailer {
  const signature = [
    '--',
    operator.companyName,
    `Questions? Write to ${operator.supportEmail}`,
    ...(operator.termsUrl !== undefined ? ['Terms of service:', operator.termsUrl] : []),
  ].join('\n');
  return {
    send: (mail) => mailer.send({ ...mail, text: `${mail.text.replace(/\n*$/, '\n')}\n${signature}\n` }),
  };
}
