-- The audit trail's totals without a count over the trail (issue 31): a page read the events and then count(*)ed the
-- project's whole trail. Counts per project, UTC day and the filtered columns (actor, surface, operation, objectType)
-- are kept in the writing transaction by one statement-level trigger with transition tables: a bootstrap's INSERT …
-- SELECT of 200,000 events costs one grouped upsert. An update moves a count only when it changes a counted column
-- (the settle step writes outcome, status and objectName, which are not counted). Upserts run in key order,
-- so two writers meet the counter rows in one order. The rows are fine-grained on purpose: writers of different
-- operations in one project do not wait for each other on one counter row.
CREATE TABLE "AuditCount" (
    "scope" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "actor" TEXT NOT NULL,
    "surface" "AuditSurface" NOT NULL,
    "operation" TEXT NOT NULL,
    "objectType" TEXT NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "AuditCount_pkey" PRIMARY KEY ("scope","day","actor","surface","operation","objectType")
);

CREATE FUNCTION audit_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "AuditCount" AS c (scope, day, actor, surface, operation, "objectType", n)
    SELECT coalesce("projectName", ''), at::date, actor, surface, operation, coalesce("objectType", ''), count(*)::int
      FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (scope, day, actor, surface, operation, "objectType") DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO "AuditCount" AS c (scope, day, actor, surface, operation, "objectType", n)
    SELECT coalesce("projectName", ''), at::date, actor, surface, operation, coalesce("objectType", ''), -count(*)::int
      FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (scope, day, actor, surface, operation, "objectType") DO UPDATE SET n = c.n + excluded.n;
    -- a retention purge leaves no empty counter behind
    DELETE FROM "AuditCount" WHERE n <= 0 AND (scope, day) IN (SELECT DISTINCT coalesce("projectName", ''), at::date FROM old_rows);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION audit_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "AuditCount";
  RETURN NULL;
END $$;

CREATE TRIGGER "AuditEvent_count_ins" AFTER INSERT ON "AuditEvent" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_count_apply();
CREATE TRIGGER "AuditEvent_count_del" AFTER DELETE ON "AuditEvent" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION audit_count_apply();
-- No code changes a counted column of a stored event (PostgreSQL refuses transition tables with a column list, and a
-- statement-level trigger on every update would run for each settled event): a row-level trigger that fires only
-- when a counted column changes moves the event's count.
CREATE FUNCTION audit_count_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "AuditCount" AS c (scope, day, actor, surface, operation, "objectType", n)
  VALUES (coalesce(OLD."projectName", ''), OLD.at::date, OLD.actor, OLD.surface, OLD.operation, coalesce(OLD."objectType", ''), -1)
  ON CONFLICT (scope, day, actor, surface, operation, "objectType") DO UPDATE SET n = c.n + excluded.n;
  DELETE FROM "AuditCount" WHERE n <= 0 AND (scope, day, actor, surface, operation, "objectType")
    = (coalesce(OLD."projectName", ''), OLD.at::date, OLD.actor, OLD.surface, OLD.operation, coalesce(OLD."objectType", ''));
  INSERT INTO "AuditCount" AS c (scope, day, actor, surface, operation, "objectType", n)
  VALUES (coalesce(NEW."projectName", ''), NEW.at::date, NEW.actor, NEW.surface, NEW.operation, coalesce(NEW."objectType", ''), 1)
  ON CONFLICT (scope, day, actor, surface, operation, "objectType") DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
CREATE TRIGGER "AuditEvent_count_upd" AFTER UPDATE OF "projectName", at, actor, surface, operation, "objectType" ON "AuditEvent" FOR EACH ROW
  WHEN ((OLD."projectName", OLD.at::date, OLD.actor, OLD.surface, OLD.operation, OLD."objectType")
    IS DISTINCT FROM (NEW."projectName", NEW.at::date, NEW.actor, NEW.surface, NEW.operation, NEW."objectType"))
  EXECUTE FUNCTION audit_count_move();
CREATE TRIGGER "AuditEvent_count_trunc" AFTER TRUNCATE ON "AuditEvent" FOR EACH STATEMENT EXECUTE FUNCTION audit_count_truncate();

INSERT INTO "AuditCount" (scope, day, actor, surface, operation, "objectType", n)
SELECT coalesce("projectName", ''), at::date, actor, surface, operation, coalesce("objectType", ''), count(*)::int
  FROM "AuditEvent" GROUP BY 1, 2, 3, 4, 5, 6;

-- The trail's pages in its default order (newest first, ties by id) straight off an index, whole or per project.
DROP INDEX "AuditEvent_at_idx";
DROP INDEX "AuditEvent_projectName_at_idx";
CREATE INDEX "AuditEvent_at_id_idx" ON "AuditEvent"("at" DESC, "id");
CREATE INDEX "AuditEvent_projectName_at_id_idx" ON "AuditEvent"("projectName", "at" DESC, "id");
