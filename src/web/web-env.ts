import type { Hono } from 'hono';
import type { WebhookPostOptions } from '../alerts/webhook-post.ts';
import type { OperatorSettings } from '../config.ts';
import type { Sql } from '../data/client.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { StripePayments } from '../payments/stripe-payments.ts';

/** The signed-in account holder of a page request (web/session.ts). */
export interface Session {
  accountId: number;
  email: string;
  /** Every form this session posts carries it (web/csrf.ts). */
  csrfToken: string;
  /** SHA-256 of the session cookie's value: what signs this session out. */
  idHash: Buffer;
  /** Seals what this session alone may read back, such as a new key's plaintext (web/new-key-flash.ts). */
  flashKey: Buffer;
}

export interface WebEnv {
  Variables: {
    requestId: string;
    /** The signed-in account holder; null when the browser is signed out. */
    session: Session | null;
  };
}

/** The account page: its own Hono app, mounted under /account by createApp. */
export type Web = Hono<WebEnv>;

/** What the account page's modules may use; each one names only what it uses. */
export interface WebDependencies {
  sql: Sql;
  /** Where customers reach the service: the base of the links in emails (known once it listens). */
  publicUrl: () => URL;
  /** The page is served over HTTPS: its cookies are `Secure` and `__Host-` prefixed. */
  secureCookies: boolean;
  /** The service's log, for lines an operator or a local user must see (links when no mail is configured). */
  log: (line: string) => void;
  mailer: Mailer;
  /** The service's clock: the usage periods end today by it. */
  now: () => Date;
  /** Credit packs sold through Stripe Checkout; null: the operator sells credits. */
  payments: Pick<StripePayments, 'packs' | 'checkoutOrigin' | 'startCheckout'> | null;
  /** Who runs the service: the pages' footer, where to write to buy credits without Stripe. */
  operator: OperatorSettings;
  /** How alert webhooks are checked and reached, as the alert sender does it; public addresses only by default. */
  webhooks?: WebhookPostOptions;
  /** The most live watches an account holds per dataset (the Watches page creates them like the API). */
  watchLimit: number;
}
