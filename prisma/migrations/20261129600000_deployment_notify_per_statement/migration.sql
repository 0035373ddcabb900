-- Deployment outcomes announced per statement, not per row (issue 31 §4). A bulk run records 200 push outcomes per
-- chunk; the row trigger sent 200 notifications for them, each one queued by the server, read, parsed and fanned out
-- by every listening instance. Now one statement-level trigger per event (transition tables) sends one notification
-- per project, environment and acknowledgement, its items [kind, name, revision] grouped into payloads under 6,000
-- characters (a NOTIFY payload must stay under 8,000 bytes); the event bus splits them into the same per-record
-- events as before (src/platform/events/bus.ts), so subscribers and webhooks see what they saw.
CREATE FUNCTION "gateway_notify_deployments"() RETURNS trigger AS $$
DECLARE
  g record;
BEGIN
  FOR g IN
    SELECT q.p, q.e, q.a, json_agg(q.item ORDER BY q.name) AS items
      FROM (SELECT r.p, r.e, r.a, r.name, r.item, (sum(r.len) OVER (PARTITION BY r.p, r.e, r.a ORDER BY r.name ROWS UNBOUNDED PRECEDING) - 1) / 6000 AS bucket
              FROM (SELECT n."projectName" AS p, n."environmentName" AS e, n."acknowledged" AS a, n."kind" || '/' || n."name" AS name,
                           json_build_array(n."kind", n."name", n."revision") AS item,
                           octet_length(n."kind") + octet_length(n."name") + 20 AS len
                      FROM new_rows n) r) q
     GROUP BY q.p, q.e, q.a, q.bucket
     ORDER BY q.p, q.e, q.a, q.bucket
  LOOP
    PERFORM pg_notify('gateway_events', json_build_object('k', 'deployments', 'p', g.p, 'e', g.e, 'a', g.a, 'd', g.items)::text);
  END LOOP;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER "DeploymentRecord_notify" ON "DeploymentRecord";
CREATE TRIGGER "DeploymentRecord_notify_ins" AFTER INSERT ON "DeploymentRecord" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "gateway_notify_deployments"();
CREATE TRIGGER "DeploymentRecord_notify_upd" AFTER UPDATE ON "DeploymentRecord" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "gateway_notify_deployments"();
