-- Audit events announced per statement, not per row, as deployment records already are (20261129600000). An apply
-- that audits thousands of objects in one INSERT (a bootstrap file, a declarative sync, a transfer) sent one
-- notification per row: each queued by the server, read, parsed and fanned out by every listening instance. Now one
-- notification per statement and project, its event ids (ascending, as the rows were written) grouped into payloads
-- under 6,000 characters (a NOTIFY payload must stay under 8,000 bytes); the event bus splits them into the same
-- per-event messages as before (src/platform/events/bus.ts), so subscribers and webhooks see what they saw.
CREATE FUNCTION "gateway_notify_audits"() RETURNS trigger AS $$
DECLARE
  g record;
BEGIN
  FOR g IN
    SELECT q.p, json_agg(q.id ORDER BY q.n) AS ids, min(q.n) AS first
      FROM (SELECT r.p, r.id, r.n, (sum(r.len) OVER (PARTITION BY r.p ORDER BY r.n ROWS UNBOUNDED PRECEDING) - 1) / 6000 AS bucket
              FROM (SELECT n."projectName" AS p, n."id"::text AS id, n."id" AS n, octet_length(n."id"::text) + 3 AS len
                      FROM new_rows n) r) q
     GROUP BY q.p, q.bucket
     ORDER BY first
  LOOP
    PERFORM pg_notify('gateway_events', json_build_object('k', 'audits', 'p', g.p, 'ids', g.ids)::text);
  END LOOP;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER "AuditEvent_notify" ON "AuditEvent";
CREATE TRIGGER "AuditEvent_notify_ins" AFTER INSERT ON "AuditEvent" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "gateway_notify_audits"();
