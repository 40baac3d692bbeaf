-- A word and what it becomes with one letter (code point) deleted: two words are one edit apart
-- (a letter changed, added, dropped, or two swapped) when they share one of these (docs/product-rules.md
-- R15.2). The same function makes the variants of the names' words and of a query's.
CREATE OR REPLACE FUNCTION word_variants(word text)
RETURNS SETOF text
-- A word's length and one more, not the planner's default thousand rows: probed one by one.
LANGUAGE sql IMMUTABLE PARALLEL SAFE ROWS 10 AS $$
  SELECT word
  UNION
  SELECT overlay(word PLACING '' FROM i FOR 1)
    FROM generate_series(1, length(word)) i
   WHERE length(word) BETWEEN 2 AND 32
$$;
