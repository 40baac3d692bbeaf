import { type ApiError, notFound } from '../contract/errors.ts';
import type { Sql } from '../data/client.ts';
import { similarDomains, similarNames } from '../data/search.ts';

/**
 * The data 404s of the lookups (docs/product-rules.md R2.0.2), with what resembles the name or
 * domain asked for (§15). They are charged like the answer they stand for, so the suggestions
 * come with them at no extra charge.
 */
export async function advertiserNotFound(sql: Sql, name: string): Promise<ApiError> {
  return notFound(`No advertiser is named ${JSON.stringify(name)}.`, await similarNames(sql, name));
}

export async function domainNotFound(sql: Sql, domain: string): Promise<ApiError> {
  return notFound(
    `The service has no data on the domain ${JSON.stringify(domain)}.`,
    await similarDomains(sql, domain),
  );
}
