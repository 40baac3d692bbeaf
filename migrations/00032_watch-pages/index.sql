-- Placeholder of this branch only: number 00032 belongs to the watches API's migration, which the
-- merge takes in place of this file; it keeps the migrations numbered without a gap until then.
SELECT 1;
