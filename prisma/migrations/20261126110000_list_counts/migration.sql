-- CreateTable
CREATE TABLE "ListCount" (
    "list" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "ListCount_pkey" PRIMARY KEY ("list","scope")
);

-- Exact list totals kept in the writes' own transactions (issue 19 §3). One statement-level trigger per
-- event with transition tables, so a bulk INSERT … SELECT of 100,000 rows costs one grouped upsert, not
-- 100,000. Arguments: the list name, the scope column, and optionally a predicate naming the counted subset.
-- An UPDATE touches the counter only when it moves rows between scopes or in/out of the subset, so ordinary
-- edits take no lock on it. Upserts run in scope order, so two writers meet the counter rows in one order.
CREATE FUNCTION list_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  subset text := coalesce(TG_ARGV[2], 'true');
  delta text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    delta := format('SELECT %I AS s, count(*)::int AS d FROM new_rows WHERE %s GROUP BY 1', TG_ARGV[1], subset);
  ELSIF TG_OP = 'DELETE' THEN
    delta := format('SELECT %I AS s, -count(*)::int AS d FROM old_rows WHERE %s GROUP BY 1', TG_ARGV[1], subset);
  ELSE
    delta := format('SELECT s, sum(d)::int AS d FROM (SELECT %1$I AS s, 1 AS d FROM new_rows WHERE %2$s'
      ' UNION ALL SELECT %1$I, -1 FROM old_rows WHERE %2$s) x GROUP BY s HAVING sum(d) <> 0', TG_ARGV[1], subset);
  END IF;
  EXECUTE format('INSERT INTO "ListCount" (list, scope, n) SELECT %L, s, d FROM (%s) q WHERE s IS NOT NULL ORDER BY s'
    ' ON CONFLICT (list, scope) DO UPDATE SET n = "ListCount".n + excluded.n', TG_ARGV[0], delta);
  RETURN NULL;
END $$;

CREATE FUNCTION list_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "ListCount" WHERE list = TG_ARGV[0];
  RETURN NULL;
END $$;

-- Credential by project (consumers, credentials)
CREATE TRIGGER "Credential_count_ins" AFTER INSERT ON "Credential" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_count_apply('Credential', 'projectId');
CREATE TRIGGER "Credential_count_del" AFTER DELETE ON "Credential" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_count_apply('Credential', 'projectId');
CREATE TRIGGER "Credential_count_upd" AFTER UPDATE ON "Credential" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_count_apply('Credential', 'projectId');
CREATE TRIGGER "Credential_count_trunc" AFTER TRUNCATE ON "Credential" FOR EACH STATEMENT EXECUTE FUNCTION list_count_truncate('Credential');
INSERT INTO "ListCount" (list, scope, n) SELECT 'Credential', "projectId", count(*) FROM "Credential" GROUP BY 2;

-- Application by project
CREATE TRIGGER "Application_count_ins" AFTER INSERT ON "Application" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_count_apply('Application', 'projectId');
CREATE TRIGGER "Application_count_del" AFTER DELETE ON "Application" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_count_apply('Application', 'projectId');
CREATE TRIGGER "Application_count_upd" AFTER UPDATE ON "Application" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_count_apply('Application', 'projectId');
CREATE TRIGGER "Application_count_trunc" AFTER TRUNCATE ON "Application" FOR EACH STATEMENT EXECUTE FUNCTION list_count_truncate('Application');
INSERT INTO "ListCount" (list, scope, n) SELECT 'Application', "projectId", count(*) FROM "Application" GROUP BY 2;

-- LimitAssignment by project
CREATE TRIGGER "LimitAssignment_count_ins" AFTER INSERT ON "LimitAssignment" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_count_apply('LimitAssignment', 'projectId');
CREATE TRIGGER "LimitAssignment_count_del" AFTER DELETE ON "LimitAssignment" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_count_apply('LimitAssignment', 'projectId');
CREATE TRIGGER "LimitAssignment_count_upd" AFTER UPDATE ON "LimitAssignment" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_count_apply('LimitAssignment', 'projectId');
CREATE TRIGGER "LimitAssignment_count_trunc" AFTER TRUNCATE ON "LimitAssignment" FOR EACH STATEMENT EXECUTE FUNCTION list_count_truncate('LimitAssignment');
INSERT INTO "ListCount" (list, scope, n) SELECT 'LimitAssignment', "projectId", count(*) FROM "LimitAssignment" GROUP BY 2;

-- LimitBulkRun by project
CREATE TRIGGER "LimitBulkRun_count_ins" AFTER INSERT ON "LimitBulkRun" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_count_apply('LimitBulkRun', 'projectId');
CREATE TRIGGER "LimitBulkRun_count_del" AFTER DELETE ON "LimitBulkRun" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_count_apply('LimitBulkRun', 'projectId');
CREATE TRIGGER "LimitBulkRun_count_upd" AFTER UPDATE ON "LimitBulkRun" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_count_apply('LimitBulkRun', 'projectId');
CREATE TRIGGER "LimitBulkRun_count_trunc" AFTER TRUNCATE ON "LimitBulkRun" FOR EACH STATEMENT EXECUTE FUNCTION list_count_truncate('LimitBulkRun');
INSERT INTO "ListCount" (list, scope, n) SELECT 'LimitBulkRun', "projectId", count(*) FROM "LimitBulkRun" GROUP BY 2;

-- LimitPlan by scope: the catalogue's default view leaves out plans managed by a subscription plan
CREATE TRIGGER "LimitPlan_count_ins" AFTER INSERT ON "LimitPlan" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_count_apply('LimitPlan.unmanaged', 'scope', '"managedBySubscriptionPlanId" IS NULL');
CREATE TRIGGER "LimitPlan_count_del" AFTER DELETE ON "LimitPlan" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION list_count_apply('LimitPlan.unmanaged', 'scope', '"managedBySubscriptionPlanId" IS NULL');
CREATE TRIGGER "LimitPlan_count_upd" AFTER UPDATE ON "LimitPlan" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION list_count_apply('LimitPlan.unmanaged', 'scope', '"managedBySubscriptionPlanId" IS NULL');
CREATE TRIGGER "LimitPlan_count_trunc" AFTER TRUNCATE ON "LimitPlan" FOR EACH STATEMENT EXECUTE FUNCTION list_count_truncate('LimitPlan.unmanaged');
INSERT INTO "ListCount" (list, scope, n) SELECT 'LimitPlan.unmanaged', "scope", count(*) FROM "LimitPlan" WHERE "managedBySubscriptionPlanId" IS NULL GROUP BY 2;
