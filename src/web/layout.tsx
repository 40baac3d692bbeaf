import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import { CSRF_FIELD } from './csrf.ts';
import { OperatorFooter } from './operator.tsx';

export interface PageProps {
  title: string;
  /** The signed-in account holder's address; the navigation and sign-out button show only with it. */
  email?: string;
  /** The form token of the sign-out button (and of every form of the page). */
  csrfToken?: string;
  /** Which navigation entry is the current page. */
  current?: (typeof NAV)[number]['id'];
  /** Scripts of the page, served from /account/assets/ (the CSP allows no other). */
  scripts?: string[];
  /** Stylesheets besides the page's own, served from /account/assets/. */
  styles?: string[];
  children: Child;
}

const NAV = [
  { id: 'overview', href: '/account', label: 'Overview' },
  { id: 'keys', href: '/account/keys', label: 'API keys' },
  { id: 'ledger', href: '/account/ledger', label: 'Ledger' },
  { id: 'credits', href: '/account/credits', label: 'Buy credits' },
  { id: 'alerts', href: '/account/alerts', label: 'Alerts' },
  { id: 'watches', href: '/account/watches', label: 'Watches' },
  { id: 'settings', href: '/account/settings', label: 'Settings' },
] as const;

/** The shell of every account page: one stylesheet, no inline script or style (the page's CSP forbids them). */
export function Page({ title, email, csrfToken, current, scripts = [], styles = [], children }: PageProps) {
  // The doctype keeps browsers in standards mode (without it, quirks mode adds margins to forms).
  return (
    <>
      {raw('<!DOCTYPE html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{`${title} · Advertiser Lookup API`}</title>
          <link rel="stylesheet" href="/account/assets/account.css" />
          {styles.map((href) => (
            <link rel="stylesheet" href={href} />
          ))}
          <link rel="icon" href="data:," />
        </head>
        <body>
          <a class="skip" href="#main">
            Skip to content
          </a>
          <header class="top">
            <a class="brand" href="/account">
              Advertiser Lookup API
            </a>
            {email !== undefined && (
              <nav aria-label="Account">
                <ul>
                  {NAV.map((entry) => (
                    <li>
                      <a href={entry.href} aria-current={entry.id === current ? 'page' : undefined}>
                        {entry.label}
                      </a>
                    </li>
                  ))}
                  <li>
                    <a href="/docs">API docs</a>
                  </li>
                </ul>
              </nav>
            )}
            {email !== undefined && csrfToken !== undefined && (
              <form method="post" action="/account/sign-out" class="sign-out">
                <span class="who">{email}</span>
                <CsrfField token={csrfToken} />
                <button type="submit" class="link">
                  Sign out
                </button>
              </form>
            )}
          </header>
          <main id="main">{children}</main>
          <OperatorFooter />
          {scripts.map((src) => (
            <script src={src} defer />
          ))}
        </body>
      </html>
    </>
  );
}

/** The hidden form token every form posts (web/csrf.ts). */
export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={token} />;
}

/** The id of a form's error notice, which the field at fault names in `aria-describedby`. */
export const FORM_PROBLEM_ID = 'form-problem';

/** A message above a form or a table: what just happened, or what went wrong. */
export function Notice({ kind, id, children }: { kind: 'success' | 'error' | 'info'; id?: string; children: Child }) {
  return (
    <div id={id} class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
