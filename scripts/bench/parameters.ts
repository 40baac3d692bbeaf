import { rootDomain } from '../../src/contract/root-domain.ts';
import type { Sql } from '../../src/data/client.ts';
import { BenchError } from './errors.ts';

export interface Parameters {
  names: string[];
  domains: string[];
  /** What a customer types into the advertiser search: the start of a name, in lower case. */
  queries: string[];
  /** Names and domains with a letter dropped that no advertiser or domain holds: the "did you mean" 404s. */
  misspelledNames: string[];
  misspelledDomains: string[];
}

/** A typo: the third character left out (of a domain, in its first label, so it stays a root domain). */
const misspell = (text: string) => text.slice(0, 2) + text.slice(3);

/**
 * The domains' typos that are still valid domain parameters, as the service normalizes them: a
 * typo of a short or hyphenated domain may not be (`ab.de` → `abde`, `a-b.de` → `a-.de`), and
 * the service would answer it 400, not the did-you-mean's 404.
 */
function typosOf(domains: readonly string[]): string[] {
  return domains.map(misspell).filter((typo) => rootDomain(typo) === typo);
}

/** The first word of a name and the start of the next, lower-cased: a prefix search with more than one match. */
function queryFor(name: string): string {
  return name.toLowerCase().slice(0, 10).trim();
}

/**
 * Names and domains that exist in the dataset, for the requests to look up: a fixed-size sample
 * spread over the whole population (ordered by a hash, so the same dataset gives the same
 * sample). Advertiser names come from the identifiers, domains from the landing domains with
 * observations (so the domain summary and the brand-bid report both find rows).
 */
export async function sampleParameters(sql: Sql, count: number): Promise<Parameters> {
  const names = await sql<{ name: string }[]>`
    SELECT name FROM (SELECT DISTINCT name FROM identifiers) n ORDER BY md5(name) LIMIT ${count}`;
  const domains = await sql<{ domain: string }[]>`
    SELECT domain FROM landing_domain_stats ORDER BY md5(domain) LIMIT ${count}`;
  if (names.length === 0 || domains.length === 0)
    throw new BenchError('the dataset has no advertisers or no landing domains to look up');
  const queries = names.map((row) => queryFor(row.name)).filter((query) => [...query].length >= 2);
  const misspelledNames = await sql<{ name: string }[]>`
    SELECT name FROM unnest(${names.map((row) => misspell(row.name))}::text[]) AS typo(name)
     WHERE NOT EXISTS (SELECT 1 FROM identifiers i WHERE i.name = typo.name)`;
  const misspelledDomains = await sql<{ domain: string }[]>`
    SELECT domain FROM unnest(${typosOf(domains.map((row) => row.domain))}::text[]) AS typo(domain)
     WHERE NOT EXISTS (SELECT 1 FROM landing_domain_stats d WHERE d.domain = typo.domain)
       AND NOT EXISTS (SELECT 1 FROM crawls c WHERE c.domain = typo.domain)`;
  return {
    names: names.map((row) => row.name),
    domains: domains.map((row) => row.domain),
    queries,
    misspelledNames: misspelledNames.map((row) => row.name),
    misspelledDomains: misspelledDomains.map((row) => row.domain),
  };
}
