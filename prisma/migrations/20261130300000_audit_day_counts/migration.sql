-- The audit trail's unfiltered total without reading every counter row (issue 31 §1): "AuditCount" holds a row per
-- project, day, actor, surface, operation and object type, so a total without a column filter summed days kept ×
-- those combinations (about 25,000 rows at 200,000 events, slow on PGlite). "AuditDayCount" keeps the events per
-- project and UTC day, in the same transaction, from the same triggers: an unfiltered total or a deep page's per-day
-- sums read at most the days kept × 4 rows. The 4 slots (by transaction id) keep concurrent writers of one project
-- from queueing on one row per day; a slot may go negative after a purge, only a day's sum over its slots is a count,
-- and a day whose sum reaches 0 loses its rows.
CREATE TABLE "AuditDayCount" (
    "scope" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "slot" SMALLINT NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "AuditDayCount_pkey" PRIMARY KEY ("scope","day","slot")
);

CREATE OR REPLACE FUNCTION audit_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "AuditCount" AS c (scope, day, actor, surface, operation, "objectType", n)
    SELECT coalesce("projectName", ''), at::date, actor, surface, operation, coalesce("objectType", ''), count(*)::int
      FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (scope, day, actor, surface, operation, "objectType") DO UPDATE SET n = c.n + excluded.n;
    INSERT INTO "AuditDayCount" AS c (scope, day, slot, n)
    SELECT coalesce("projectName", ''), at::date, (txid_current() % 4)::smallint, count(*)::int
      FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (scope, day, slot) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO "AuditCount" AS c (scope, day, actor, surface, operation, "objectType", n)
    SELECT coalesce("projectName", ''), at::date, actor, surface, operation, coalesce("objectType", ''), -count(*)::int
      FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (scope, day, actor, surface, operation, "objectType") DO UPDATE SET n = c.n + excluded.n;
    -- a retention purge leaves no empty counter behind
    DELETE FROM "AuditCount" WHERE n <= 0 AND (scope, day) IN (SELECT DISTINCT coalesce("projectName", ''), at::date FROM old_rows);
    INSERT INTO "AuditDayCount" AS c (scope, day, slot, n)
    SELECT coalesce("projectName", ''), at::date, (txid_current() % 4)::smallint, -count(*)::int
      FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (scope, day, slot) DO UPDATE SET n = c.n + excluded.n;
    DELETE FROM "AuditDayCount" WHERE (scope, day) IN (
      SELECT scope, day FROM "AuditDayCount"
       WHERE (scope, day) IN (SELECT DISTINCT coalesce("projectName", ''), at::date FROM old_rows)
       GROUP BY scope, day HAVING sum(n) <= 0);
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION audit_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "AuditCount";
  DELETE FROM "AuditDayCount";
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION audit_count_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "AuditCount" AS c (scope, day, actor, surface, operation, "objectType", n)
  VALUES (coalesce(OLD."projectName", ''), OLD.at::date, OLD.actor, OLD.surface, OLD.operation, coalesce(OLD."objectType", ''), -1)
  ON CONFLICT (scope, day, actor, surface, operation, "objectType") DO UPDATE SET n = c.n + excluded.n;
  DELETE FROM "AuditCount" WHERE n <= 0 AND (scope, day, actor, surface, operation, "objectType")
    = (coalesce(OLD."projectName", ''), OLD.at::date, OLD.actor, OLD.surface, OLD.operation, coalesce(OLD."objectType", ''));
  INSERT INTO "AuditCount" AS c (scope, day, actor, surface, operation, "objectType", n)
  VALUES (coalesce(NEW."projectName", ''), NEW.at::date, NEW.actor, NEW.surface, NEW.operation, coalesce(NEW."objectType", ''), 1)
  ON CONFLICT (scope, day, actor, surface, operation, "objectType") DO UPDATE SET n = c.n + excluded.n;
  IF (coalesce(OLD."projectName", ''), OLD.at::date) IS DISTINCT FROM (coalesce(NEW."projectName", ''), NEW.at::date) THEN
    INSERT INTO "AuditDayCount" AS c (scope, day, slot, n)
    VALUES (coalesce(OLD."projectName", ''), OLD.at::date, (txid_current() % 4)::smallint, -1)
    ON CONFLICT (scope, day, slot) DO UPDATE SET n = c.n + excluded.n;
    DELETE FROM "AuditDayCount" WHERE (scope, day) = (coalesce(OLD."projectName", ''), OLD.at::date)
      AND (SELECT sum(n) FROM "AuditDayCount" WHERE (scope, day) = (coalesce(OLD."projectName", ''), OLD.at::date)) <= 0;
    INSERT INTO "AuditDayCount" AS c (scope, day, slot, n)
    VALUES (coalesce(NEW."projectName", ''), NEW.at::date, (txid_current() % 4)::smallint, 1)
    ON CONFLICT (scope, day, slot) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;

INSERT INTO "AuditDayCount" (scope, day, slot, n)
SELECT scope, day, 0, sum(n)::int FROM "AuditCount" GROUP BY scope, day HAVING sum(n) > 0;
