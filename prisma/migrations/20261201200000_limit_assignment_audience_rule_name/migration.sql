-- Issue 29: AUDIENCE_RULE limit assignments in a declarative file are named by a label the file chooses (the subject
-- part of their natural key); a rule created by REST has none and is named by its bindingKey.
ALTER TABLE "LimitAssignment" ADD COLUMN "audienceRuleName" TEXT;
