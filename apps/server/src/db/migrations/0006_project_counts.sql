CREATE TABLE "project_counts" (
	"user_id" text NOT NULL,
	"status" boolean NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "project_counts_user_id_status_pk" PRIMARY KEY("user_id","status")
);
--> statement-breakpoint
-- Kept by statement triggers (one upsert per statement, whatever the number of rows): every insert,
-- delete, owner or status change of projects adds its delta per (owner, status) in the same
-- transaction. Rows are upserted in key order, so two transactions never wait on each other crosswise.
CREATE FUNCTION "project_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE project_counts SET n = 0 WHERE n <> 0;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO project_counts (user_id, status, n)
      SELECT user_id, status, count(*) FROM new_rows GROUP BY user_id, status ORDER BY user_id, status
      ON CONFLICT (user_id, status) DO UPDATE SET n = project_counts.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO project_counts (user_id, status, n)
      SELECT user_id, status, -count(*) FROM old_rows GROUP BY user_id, status ORDER BY user_id, status
      ON CONFLICT (user_id, status) DO UPDATE SET n = project_counts.n + excluded.n;
  ELSE
    INSERT INTO project_counts (user_id, status, n)
      SELECT user_id, status, sum(delta) FROM (
        SELECT user_id, status, 1 AS delta FROM new_rows
        UNION ALL
        SELECT user_id, status, -1 AS delta FROM old_rows
      ) AS changes
      GROUP BY user_id, status HAVING sum(delta) <> 0 ORDER BY user_id, status
      ON CONFLICT (user_id, status) DO UPDATE SET n = project_counts.n + excluded.n;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "project_counts_insert" AFTER INSERT ON "projects" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "project_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "project_counts_delete" AFTER DELETE ON "projects" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "project_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "project_counts_update" AFTER UPDATE ON "projects" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "project_counts_apply"();--> statement-breakpoint
CREATE TRIGGER "project_counts_truncate" AFTER TRUNCATE ON "projects"
  FOR EACH STATEMENT EXECUTE FUNCTION "project_counts_apply"();--> statement-breakpoint
-- The triggers' lock on projects holds off writers until this migration commits: the backfill is exact.
INSERT INTO "project_counts" ("user_id", "status", "n")
  SELECT "user_id", "status", count(*) FROM "projects" GROUP BY "user_id", "status";
