CREATE TABLE "project_collection_stats" (
	"project_id" text NOT NULL,
	"collection" text NOT NULL,
	"documents" bigint DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "project_collection_stats_project_id_collection_pk" PRIMARY KEY("project_id","collection")
);
--> statement-breakpoint
CREATE TABLE "project_documents" (
	"project_id" text NOT NULL,
	"collection" text NOT NULL,
	"id" text NOT NULL,
	"doc" jsonb NOT NULL,
	"create_time" timestamp (3) with time zone NOT NULL,
	"update_time" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "project_documents_project_id_collection_id_pk" PRIMARY KEY("project_id","collection","id")
);
--> statement-breakpoint
ALTER TABLE "project_documents" ADD CONSTRAINT "project_documents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_documents_created_idx" ON "project_documents" USING btree ("project_id","collection","create_time","id");--> statement-breakpoint
-- Kept by statement triggers, like project_counts: one upsert per statement and (project, collection),
-- in key order, in the writing transaction. Bytes are the stored size of the JSON (pg_column_size).
CREATE FUNCTION "project_collection_stats_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM project_collection_stats;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO project_collection_stats (project_id, collection, documents, bytes)
      SELECT project_id, collection, count(*), sum(pg_column_size(doc)) FROM new_rows
      GROUP BY project_id, collection ORDER BY project_id, collection
      ON CONFLICT (project_id, collection) DO UPDATE SET documents = project_collection_stats.documents + excluded.documents,
        bytes = project_collection_stats.bytes + excluded.bytes;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO project_collection_stats (project_id, collection, documents, bytes)
      SELECT project_id, collection, -count(*), -sum(pg_column_size(doc)) FROM old_rows
      -- A project's deletion cascades here after its totals are gone: nothing to keep for it.
      WHERE EXISTS (SELECT 1 FROM projects WHERE projects.id = old_rows.project_id)
      GROUP BY project_id, collection ORDER BY project_id, collection
      ON CONFLICT (project_id, collection) DO UPDATE SET documents = project_collection_stats.documents + excluded.documents,
        bytes = project_collection_stats.bytes + excluded.bytes;
  ELSE
    INSERT INTO project_collection_stats (project_id, collection, documents, bytes)
      SELECT project_id, collection, sum(n), sum(size) FROM (
        SELECT project_id, collection, 1 AS n, pg_column_size(doc) AS size FROM new_rows
        UNION ALL
        SELECT project_id, collection, -1 AS n, -pg_column_size(doc) AS size FROM old_rows
      ) AS changes
      GROUP BY project_id, collection ORDER BY project_id, collection
      ON CONFLICT (project_id, collection) DO UPDATE SET documents = project_collection_stats.documents + excluded.documents,
        bytes = project_collection_stats.bytes + excluded.bytes;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "project_collection_stats_insert" AFTER INSERT ON "project_documents" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "project_collection_stats_apply"();--> statement-breakpoint
CREATE TRIGGER "project_collection_stats_delete" AFTER DELETE ON "project_documents" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "project_collection_stats_apply"();--> statement-breakpoint
CREATE TRIGGER "project_collection_stats_update" AFTER UPDATE ON "project_documents" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "project_collection_stats_apply"();--> statement-breakpoint
CREATE TRIGGER "project_collection_stats_truncate" AFTER TRUNCATE ON "project_documents"
  FOR EACH STATEMENT EXECUTE FUNCTION "project_collection_stats_apply"();--> statement-breakpoint
-- A project's rows go with it (the documents by their foreign key, the totals here).
CREATE FUNCTION "project_collection_stats_forget"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM project_collection_stats WHERE project_id IN (SELECT id FROM old_rows);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "project_collection_stats_forget" AFTER DELETE ON "projects" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "project_collection_stats_forget"();
