-- How a call came (docs/product-rules.md §21): an HTTP request, or a tool call of the MCP endpoint
-- (/mcp), which is billed through the same path. Recorded on the charge (db/functions/
-- debit_credits.sql) and copied to its refund, so the account's usage and ledger can tell the two
-- apart. Every earlier row, and every row that is not about a call (a grant, a purchase), came
-- over HTTP: the default.
ALTER TABLE ledger ADD COLUMN channel text COLLATE "C" NOT NULL DEFAULT 'http'
  CONSTRAINT ledger_channel_check CHECK (channel IN ('http', 'mcp'));
