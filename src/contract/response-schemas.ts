import type { components } from '../../generated/api-types.ts';
import { openapiDocument, resolveRef } from './document.ts';
import type { OpenAPIV31 } from './openapi-types.ts';

/**
 * The rules of the response schemas that the service applies itself, read from the contract at
 * start-up (generated/openapi.json, from openapi.yaml), so that each is stated there only: the
 * caps of the capped lists (`maxItems`) and the landing-domain counts of each `profile`
 * (`x-minimum-landing-domains`). A rule missing from the contract stops the start with an error
 * that names it.
 */

export type Profile = components['schemas']['Profile'];

/** A schema of components/schemas, or an error naming it. */
export function contractSchema(name: string, document: OpenAPIV31 = openapiDocument): any {
  const schema = resolveRef(document.components?.schemas?.[name], document);
  if (schema === undefined) throw new Error(`openapi.yaml: components/schemas/${name} is missing`);
  return schema;
}

/** The `maxItems` of the array property `property` of the schema `schema`: a cap the service applies. */
export function maxItemsOf(schema: string, property: string, document: OpenAPIV31 = openapiDocument): number {
  const maxItems = resolveRef(contractSchema(schema, document).properties?.[property], document)?.maxItems;
  if (!Number.isInteger(maxItems) || maxItems < 1) {
    throw new Error(
      `openapi.yaml: components/schemas/${schema}/properties/${property} ` +
        `needs a positive integer maxItems, the cap the service applies`,
    );
  }
  return maxItems;
}

/** The fields of the items of the array property `property` of `schema`, in order: a CSV export's columns. */
export function itemFieldsOf(schema: string, property: string, document: OpenAPIV31 = openapiDocument): string[] {
  const items = resolveRef(
    resolveRef(contractSchema(schema, document).properties?.[property], document)?.items,
    document,
  );
  const fields = Object.keys(items?.properties ?? {});
  if (items?.type !== 'object' || fields.length === 0)
    throw new Error(`openapi.yaml: components/schemas/${schema}/properties/${property} needs items with properties`);
  return fields;
}

/**
 * Each profile with the fewest landing domains it stands for, in the order of the Profile enum
 * and of growing minimums: a profile runs from its minimum up to the next one's.
 */
export const PROFILE_MINIMUMS: readonly { profile: Profile; minimum: number }[] = readProfileMinimums();

export function readProfileMinimums(document: OpenAPIV31 = openapiDocument): { profile: Profile; minimum: number }[] {
  const schema = contractSchema('Profile', document);
  const where = 'openapi.yaml: components/schemas/Profile';
  const minimums = schema['x-minimum-landing-domains'];
  if (minimums === null || typeof minimums !== 'object')
    throw new Error(`${where} needs x-minimum-landing-domains, the fewest landing domains of each profile`);
  const profiles = Object.keys(minimums);
  if (JSON.stringify(profiles) !== JSON.stringify(schema.enum)) {
    throw new Error(
      `${where}: x-minimum-landing-domains must name every profile ` +
        `of the enum, in its order (${(schema.enum ?? []).join(', ')})`,
    );
  }
  const read = profiles.map((profile) => ({ profile: profile as Profile, minimum: minimums[profile] as number }));
  read.forEach(({ profile, minimum }, i) => {
    if (!Number.isInteger(minimum) || minimum < (i === 0 ? 1 : read[i - 1].minimum + 1)) {
      throw new Error(
        `${where}: x-minimum-landing-domains.${profile} must be an integer of at least 1, above the previous profile's`,
      );
    }
  });
  return read;
}

/** The profile of an advertiser identifier with `landingDomains` landing domains (at least 1). */
export function profileOf(
  landingDomains: number,
  minimums: readonly { profile: Profile; minimum: number }[] = PROFILE_MINIMUMS,
): Profile {
  let profile = minimums[0].profile;
  for (const { profile: next, minimum } of minimums) if (landingDomains >= minimum) profile = next;
  return profile;
}
