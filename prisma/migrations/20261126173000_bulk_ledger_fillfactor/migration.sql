-- Issue 19 §5: PREPARE inserts a run's ledger rows and every chunk then sets their outcome and binding key. With
-- the pages filled by the insert, each of those updates wrote a new row version on another page and a new primary
-- key entry; with room left on the page it is a heap-only update (no index write). Prisma does not manage storage
-- parameters, so no later migration undoes this.
ALTER TABLE "LimitBulkRunSubject" SET (fillfactor = 50);
