-- Back to PostgreSQL's default statistics target on the searched name columns (migration 20261126190000 raised it
-- to 1,000). The list searches now read their page and total in one statement (`count(*) OVER ()`, issue 19 §3),
-- which must read every match: the planner takes the trigram indexes for it whatever the histogram says, so the
-- larger histogram no longer decides a plan, while estimating a contains pattern against 1,000 entries per column
-- cost every search 1–1.5 ms of planning (EXPLAIN ANALYZE over 100,000 consumers, PGlite: planning 1.5–2.0 ms at
-- 1,000 entries, 0.55–0.8 ms at the default, the same plan in 9 of 9 ANALYZEs at each).
ALTER TABLE "Credential" ALTER COLUMN "username" SET STATISTICS -1, ALTER COLUMN "fullName" SET STATISTICS -1;
ALTER TABLE "Application" ALTER COLUMN "name" SET STATISTICS -1;
ANALYZE "Credential";
ANALYZE "Application";
