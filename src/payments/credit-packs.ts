import { z } from 'zod';

/** A pack of credits the account page offers for sale (CREDIT_PACKS). */
export interface CreditPack {
  /** Stable id, used in the form and recorded with each purchase. */
  id: string;
  name: string;
  credits: number;
  /** The price in the currency's minor units (cents). */
  price: number;
  /** ISO 4217, lower case, as Stripe takes it. */
  currency: string;
}

const packSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'an id of lower-case letters, digits and dashes'),
  name: z.string().min(1).max(60),
  credits: z.number().int().min(1).max(1_000_000_000),
  price: z.number().int().min(50).max(100_000_000),
  currency: z.string().regex(/^[a-z]{3}$/, 'a three-letter ISO 4217 code in lower case, such as usd'),
});

/** The CREDIT_PACKS value: a JSON array of packs with distinct ids. */
export const creditPacksSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of packs' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(packSchema)
      .min(1)
      .max(12)
      .refine((packs) => new Set(packs.map((pack) => pack.id)).size === packs.length, 'pack ids must differ'),
  );

export const DEFAULT_CREDIT_PACKS: CreditPack[] = [
  { id: 'starter', name: 'Starter', credits: 1_000, price: 1_000, currency: 'usd' },
  { id: 'growth', name: 'Growth', credits: 5_000, price: 4_500, currency: 'usd' },
  { id: 'scale', name: 'Scale', credits: 25_000, price: 20_000, currency: 'usd' },
];
