-- A contains search's selectivity is estimated from the searched column's histogram (the share of its entries that
-- match the pattern). With PostgreSQL's default of 100 entries, a term held by 0.2 % of the rows matched 0, 1 or 2 of
-- them from one ANALYZE to the next, and the planner flipped between the trigram indexes (≈ 1 ms for page 0 of a search
-- over 100,000 consumers) and walking the sort index through the table (≈ 14 ms). With 1,000 entries such a term is
-- estimated within a few rows (issue 19 §3: search ≤ 2× page 0).
ALTER TABLE "Credential" ALTER COLUMN "username" SET STATISTICS 1000, ALTER COLUMN "fullName" SET STATISTICS 1000;
ALTER TABLE "Application" ALTER COLUMN "name" SET STATISTICS 1000;
ANALYZE "Credential";
ANALYZE "Application";
