-- Bulk runs near the floor (issue 19 §5). A deployment notification says whether the environment acknowledged
-- ('a'): a bulk chunk records 200 outcomes at once, and the event webhooks, which only announce failed deployments,
-- no longer read every acknowledged record back to find that out.
CREATE OR REPLACE FUNCTION "gateway_notify_event"() RETURNS trigger AS $$
BEGIN
  IF TG_TABLE_NAME = 'AuditEvent' THEN
    PERFORM pg_notify('gateway_events', json_build_object('k', 'audit', 'id', NEW."id"::text, 'p', NEW."projectName")::text);
  ELSIF TG_TABLE_NAME = 'DeploymentRecord' THEN
    PERFORM pg_notify('gateway_events', json_build_object('k', 'deployment', 'p', NEW."projectName", 'e', NEW."environmentName",
      'kind', NEW."kind", 'n', NEW."name", 'r', NEW."revision", 'a', NEW."acknowledged")::text);
  ELSIF TG_TABLE_NAME = 'LimitBulkRun' THEN
    PERFORM pg_notify('gateway_events', json_build_object('k', 'bulkRun', 'id', NEW."runId", 's', NEW."runStatus"::text)::text);
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

-- Every chunk writes 200 ledger outcomes: without an index on the outcome the update touches one index fewer per
-- row. Rollback and retry-failed read a run's ledger once, by the primary key's runId prefix.
DROP INDEX "LimitBulkRunSubject_runId_outcome_idx";
