import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Sql } from '../data/client.ts';
import {
  disableTwoFactor,
  enableTwoFactor,
  startTwoFactorSetup,
  twoFactorOf,
  unusedRecoveryCodes,
  useCodeStep,
  useRecoveryCode,
} from '../data/two-factor.ts';

/** How many recovery codes an account gets, each usable once (R12.20). */
export const RECOVERY_CODES = 10;

/** RFC 6238's defaults, which every authenticator app reads: SHA-1, 6 digits, 30 seconds. */
const PERIOD_SECONDS = 30;
const ISSUER = 'Advertiser Lookup API';

function totpOf(secret: string, email: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** A recovery code as typed: case, spaces and dashes do not matter. */
function recoveryCodeHash(code: string): Buffer {
  return createHash('sha256').update(code.replace(/[\s-]/g, '').toUpperCase(), 'utf8').digest();
}

/** 16 characters of RFC 4648 base32 (80 random bits), shown in four groups. */
function newRecoveryCode(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bytes = randomBytes(16);
  const text = [...bytes].map((byte) => alphabet[byte & 31]).join('');
  return text.match(/.{4}/g)!.join('-');
}

/** What the settings page shows of two-factor sign-in. */
export type TwoFactorView =
  | { state: 'off' }
  | { state: 'setting-up'; secret: string; uri: string; qrCode: string }
  | { state: 'on'; recoveryCodesLeft: number };

/**
 * Optional two-factor sign-in with a time-based code (TOTP, RFC 6238, with the `otpauth`
 * library) and ten single-use recovery codes (docs/product-rules.md R12.20). A code is accepted
 * one step either side of now (clocks drift) and once only.
 */
export class TwoFactor {
  constructor(private readonly sql: Sql) {}

  async view(accountId: number, email: string): Promise<TwoFactorView> {
    const state = await twoFactorOf(this.sql, accountId);
    if (state.enabled) return { state: 'on', recoveryCodesLeft: await unusedRecoveryCodes(this.sql, accountId) };
    if (state.secret === null) return { state: 'off' };
    const uri = totpOf(state.secret, email).toString();
    // Drawn here, as an SVG data URL: the secret never leaves the service for a QR code service.
    const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    const qrCode = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    return { state: 'setting-up', secret: state.secret, uri, qrCode };
  }

  /** A new secret to set up with (nothing changes at sign-in until a code confirms it). */
  async startSetup(accountId: number): Promise<void> {
    await startTwoFactorSetup(this.sql, accountId, new Secret({ size: 20 }).base32);
  }

  /** Turns it on when `code` is right for the secret being set up: the recovery codes, shown once; else null. */
  async confirmSetup(accountId: number, email: string, code: string): Promise<string[] | null> {
    const state = await twoFactorOf(this.sql, accountId);
    if (state.enabled || state.secret === null) return null;
    if (!(await this.#timeCodeRight(accountId, state.secret, email, code))) return null;
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await enableTwoFactor(this.sql, accountId, codes.map(recoveryCodeHash));
    return codes;
  }

  async disable(accountId: number): Promise<void> {
    await disableTwoFactor(this.sql, accountId);
  }

  async enabled(accountId: number): Promise<boolean> {
    return (await twoFactorOf(this.sql, accountId)).enabled;
  }

  /** Whether the sign-in's second step is right: a code of the app, or an unused recovery code (used up). */
  async codeRight(accountId: number, email: string, code: string): Promise<boolean> {
    const state = await twoFactorOf(this.sql, accountId);
    if (!state.enabled || state.secret === null) return false;
    const digits = code.replace(/\s/g, '');
    if (/^[0-9]{6}$/.test(digits)) return this.#timeCodeRight(accountId, state.secret, email, digits);
    return useRecoveryCode(this.sql, accountId, recoveryCodeHash(code));
  }

  async #timeCodeRight(accountId: number, secret: string, email: string, code: string): Promise<boolean> {
    const digits = code.replace(/\s/g, '');
    const delta = totpOf(secret, email).validate({ token: digits, window: 1 });
    if (delta === null) return false;
    const step = Math.floor(Date.now() / 1000 / PERIOD_SECONDS) + delta;
    return useCodeStep(this.sql, accountId, step);
  }
}
