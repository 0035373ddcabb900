-- Live events (issue 18 §3): every audited write, deployment outcome and bulk run change is announced on the
-- channel `gateway_events` with ids only; listeners read the rows on delivery. NOTIFY inside a transaction is
-- delivered at commit (never for a rollback), to every instance listening on the database.
CREATE OR REPLACE FUNCTION "gateway_notify_event"() RETURNS trigger AS $$
BEGIN
  IF TG_TABLE_NAME = 'AuditEvent' THEN
    PERFORM pg_notify('gateway_events', json_build_object('k', 'audit', 'id', NEW."id"::text, 'p', NEW."projectName")::text);
  ELSIF TG_TABLE_NAME = 'DeploymentRecord' THEN
    PERFORM pg_notify('gateway_events', json_build_object('k', 'deployment', 'p', NEW."projectName", 'e', NEW."environmentName",
      'kind', NEW."kind", 'n', NEW."name", 'r', NEW."revision")::text);
  ELSIF TG_TABLE_NAME = 'LimitBulkRun' THEN
    PERFORM pg_notify('gateway_events', json_build_object('k', 'bulkRun', 'id', NEW."runId", 's', NEW."runStatus"::text)::text);
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER "AuditEvent_notify" AFTER INSERT ON "AuditEvent" FOR EACH ROW EXECUTE FUNCTION "gateway_notify_event"();
CREATE TRIGGER "DeploymentRecord_notify" AFTER INSERT OR UPDATE ON "DeploymentRecord" FOR EACH ROW EXECUTE FUNCTION "gateway_notify_event"();
CREATE TRIGGER "LimitBulkRun_notify" AFTER INSERT OR UPDATE ON "LimitBulkRun" FOR EACH ROW EXECUTE FUNCTION "gateway_notify_event"();
