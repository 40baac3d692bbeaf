-- Every payment id the events of a Checkout Session named (docs/product-rules.md R13.2, R13.3).
--
-- Stripe's events about one session may name its PaymentIntent, another id, none, or an expanded
-- object; the session credits its pack once whatever they say, under the first reference recorded
-- (credit_purchases.payment_reference). A refund or dispute names a payment (its PaymentIntent,
-- its charge): any id recorded here leads to the session's purchase. An id belongs to one session.
CREATE TABLE credit_purchase_payments (
  payment_id          text COLLATE "C" PRIMARY KEY,
  checkout_session_id text COLLATE "C" NOT NULL REFERENCES credit_purchases (checkout_session_id),
  -- The order the ids were learnt in: the first is the purchase's reference.
  recorded            bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX credit_purchase_payments_by_session ON credit_purchase_payments (checkout_session_id, recorded);

INSERT INTO credit_purchase_payments (payment_id, checkout_session_id)
SELECT payment_reference, checkout_session_id FROM credit_purchases
WHERE payment_reference IS NOT NULL AND payment_reference <> checkout_session_id
ORDER BY credited_at;
