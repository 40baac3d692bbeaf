import { AccountHolders } from '../accounts/account-holders.ts';
import { registerPasswordReset } from './password-reset.tsx';
import { registerSignIn } from './sign-in.tsx';
import { registerSignInCode } from './sign-in-code.tsx';
import { registerSignOut } from './sign-out.ts';
import { registerSignUp } from './sign-up.tsx';
import { registerVerifyEmail } from './verify-email.tsx';
import type { Web, WebDependencies } from './web-env.ts';

/** Sign-up, email verification, sign-in, sign-out (here and everywhere), password reset. */
export function registerAuthPages(web: Web, deps: WebDependencies & { secure: boolean }) {
  const holders = new AccountHolders(deps);
  const { sql, secure } = deps;
  registerSignUp(web, { holders, secure });
  registerVerifyEmail(web, { holders, sql, secure });
  registerSignIn(web, { holders, sql, secure });
  registerSignInCode(web, { holders, sql, secure });
  registerPasswordReset(web, { holders, secure });
  registerSignOut(web, { sql, secure });
}
