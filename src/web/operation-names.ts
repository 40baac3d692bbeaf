import { contractOperations } from '../contract/operations.ts';

/** An operation as the account page names and prices it, both read from the contract. */
export interface PricedOperation {
  operationId: string;
  /** The operation's `summary` in openapi.yaml: "Brand-bid report". */
  name: string;
  /** Its `x-credit-cost`: credits a call. */
  price: number;
}

const BY_ID = new Map(
  contractOperations.map((op) => [
    op.operationId,
    { operationId: op.operationId, name: op.summary, price: op.creditCost },
  ]),
);

/** The billed operations, in the contract's order. */
export const BILLED_OPERATIONS: readonly PricedOperation[] = [...BY_ID.values()].filter((op) => op.price > 0);

/** The product's name of an operationId; the id itself for one the contract no longer has. */
export function operationName(operationId: string): string {
  return BY_ID.get(operationId)?.name ?? operationId;
}
