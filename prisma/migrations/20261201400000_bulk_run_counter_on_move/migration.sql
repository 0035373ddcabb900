-- A bulk run's counter (ListCount 'LimitBulkRun', by project) moves only when a run changes project, which no write
-- does: the statement-level UPDATE trigger of 20261126110000_list_counts built, planned and ran a grouped upsert over
-- its transition tables for every write of a run — once per 200-subject chunk and heartbeat — to find nothing to move
-- (0.5–7 ms of each chunk's statement, issue 31 §4). Replaced by a row trigger that fires only when "projectId" is
-- set to another value, so the counter stays exact.
DROP TRIGGER "LimitBulkRun_count_upd" ON "LimitBulkRun";

CREATE FUNCTION limit_bulk_run_count_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ListCount" (list, scope, n)
  SELECT 'LimitBulkRun', s, d FROM (VALUES (OLD."projectId", -1), (NEW."projectId", 1)) AS v(s, d) ORDER BY s
  ON CONFLICT (list, scope) DO UPDATE SET n = "ListCount".n + excluded.n;
  RETURN NULL;
END $$;

CREATE TRIGGER "LimitBulkRun_count_move" AFTER UPDATE OF "projectId" ON "LimitBulkRun"
  FOR EACH ROW WHEN (OLD."projectId" IS DISTINCT FROM NEW."projectId") EXECUTE FUNCTION limit_bulk_run_count_move();
