import { creditsText } from '../contract/credits-text.ts';

/** How the account page writes numbers and times: the same everywhere, in UTC (the ledger's days are UTC). */
const NUMBER = new Intl.NumberFormat('en-US');

export function formatNumber(value: number): string {
  return NUMBER.format(value);
}

/** `1 credit`, `1,000 credits`: the count with its noun, singular or plural. */
export function formatCredits(value: number): string {
  return creditsText(value, (count) => NUMBER.format(count));
}

/** `+200` / `−3`: a ledger amount, with its sign. */
export function formatAmount(value: number): string {
  return value > 0 ? `+${NUMBER.format(value)}` : `−${NUMBER.format(-value)}`;
}

/** `2026-11-23 14:05 UTC` */
export function formatTime(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
