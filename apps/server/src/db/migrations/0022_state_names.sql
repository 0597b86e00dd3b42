-- One name for each state and rule (issue 30): a project backup record is `success`, as a task and a
-- database backup are (the project backup calls still answer `succeed`), and restore rules are stored
-- by name (the calls still send and answer 0, 1, 2): in the records, and in the parameters of restore
-- tasks that may still be waiting to be claimed.
UPDATE "project_backups" SET "status" = 'success' WHERE "status" = 'succeed';--> statement-breakpoint
UPDATE "project_backups" SET "module_rules" = (
  SELECT coalesce(jsonb_object_agg("key", CASE "value"::text
    WHEN '0' THEN '"overwrite"'::jsonb WHEN '1' THEN '"keep"'::jsonb WHEN '2' THEN '"replace"'::jsonb
    ELSE "value" END), '{}'::jsonb)
  FROM jsonb_each("module_rules"));--> statement-breakpoint
UPDATE "tasks" SET "params" = jsonb_set("params", '{rules}', (
  SELECT coalesce(jsonb_object_agg("key", CASE "value"::text
    WHEN '0' THEN '"overwrite"'::jsonb WHEN '1' THEN '"keep"'::jsonb WHEN '2' THEN '"replace"'::jsonb
    ELSE "value" END), '{}'::jsonb)
  FROM jsonb_each("params"->'rules')))
WHERE "type" = 'backup.import' AND jsonb_typeof("params"->'rules') = 'object';
