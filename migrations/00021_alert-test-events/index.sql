-- Test events (docs/product-rules.md R14.16): a signed sample alert the holder posts to the
-- account's webhook from the alerts page, to see that the endpoint receives and verifies it. One
-- row per event, written before it is posted: the page shows the latest results, and the rows of
-- the last hour limit how many an account may send, and how many one host may receive, so the
-- button cannot be used to flood a third party.
CREATE TABLE alert_test_events (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  url        text COLLATE "C" NOT NULL,
  -- The receiving host, as the limit per host counts it: the address the post connects to (so
  -- many names for one address share its limit), or the URL's host name when it had none.
  host       text COLLATE "C" NOT NULL,
  event_id   text COLLATE "C" NOT NULL,
  sent_at    timestamptz NOT NULL DEFAULT now(),
  -- The receiver's HTTP status and the failure, once the post ended; both null while it runs.
  status     integer,
  error      text,
  done_at    timestamptz
);
CREATE INDEX alert_test_events_by_account ON alert_test_events (account_id, sent_at);
CREATE INDEX alert_test_events_by_host ON alert_test_events (host, sent_at);
