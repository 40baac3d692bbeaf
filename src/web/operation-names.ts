import { openapiDocument } from '../contract/document.ts';
import { contractOperations } from '../contract/operations.ts';

/** An operation as the account page names and prices it, both read from the contract. */
export interface PricedOperation {
  operationId: string;
  /** The operation's `summary` in openapi.yaml: "Brand-bid report". */
  name: string;
  /** Its `x-credit-cost`: credits a call. */
  price: number;
}

/**
 * The contract's webhooks that are billed like calls (watchNews: a watch delivery with news,
 * docs/product-rules.md R19.22): their charges name them in the ledger and the usage.
 */
const WEBHOOK_OPERATIONS = Object.values(
  (openapiDocument as unknown as { webhooks?: Record<string, { post?: Record<string, unknown> }> }).webhooks ?? {},
)
  .map((webhook) => webhook.post)
  .filter((post): post is Record<string, unknown> => post !== undefined && typeof post.operationId === 'string')
  .map((post) => ({
    operationId: post.operationId as string,
    name: String(post.summary ?? post.operationId),
    price: Number(post['x-credit-cost'] ?? 0),
  }));

const BY_ID = new Map([
  ...contractOperations.map(
    (op) => [op.operationId, { operationId: op.operationId, name: op.summary, price: op.creditCost }] as const,
  ),
  ...WEBHOOK_OPERATIONS.map((op) => [op.operationId, op] as const),
]);

/** The billed operations, in the contract's order. */
export const BILLED_OPERATIONS: readonly PricedOperation[] = [...BY_ID.values()].filter((op) => op.price > 0);

/** The product's name of an operationId; the id itself for one the contract no longer has. */
export function operationName(operationId: string): string {
  return BY_ID.get(operationId)?.name ?? operationId;
}
