-- Declarative applies (issue 29 §4): each change's audit event names its plan and the optional change reference
-- (X-Change-Reference, e.g. a commit SHA) and what it did to the object (create, update, delete) in their own columns;
-- operation stays the operation's name.
ALTER TABLE "AuditEvent" ADD COLUMN "declarativePlanId" TEXT;
ALTER TABLE "AuditEvent" ADD COLUMN "declarativeAction" TEXT;
ALTER TABLE "AuditEvent" ADD COLUMN "changeReference" TEXT;
