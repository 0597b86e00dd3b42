-- project_documents becomes a table partitioned by project (issue 13: a large database restore loads
-- a new table and swaps it in, instead of rewriting a million rows in place). Every project's rows
-- stay in one DEFAULT partition, the table as it was (attached, not copied: no row moves); a project
-- gets its own partition when a large restore brings it one (modules/backups/document-partitions.repository.ts).
-- Partitions are named by the md5 of the project id (ids are free text, names are not), and the
-- default partition holds one CHECK per such project (`project_id <> 'its id'`): attaching the
-- project's next partition then needs no scan of the default one.

-- Statement triggers with transition tables are not allowed on a partition: they move to the parent.
DROP TRIGGER "project_collection_stats_insert" ON "project_documents";--> statement-breakpoint
DROP TRIGGER "project_collection_stats_delete" ON "project_documents";--> statement-breakpoint
DROP TRIGGER "project_collection_stats_update" ON "project_documents";--> statement-breakpoint
DROP TRIGGER "project_collection_stats_truncate" ON "project_documents";--> statement-breakpoint
ALTER TABLE "project_documents" RENAME TO "project_documents_default";--> statement-breakpoint
ALTER TABLE "project_documents_default" RENAME CONSTRAINT "project_documents_project_id_collection_id_pk" TO "project_documents_default_pkey";--> statement-breakpoint
ALTER TABLE "project_documents_default" RENAME CONSTRAINT "project_documents_project_id_projects_id_fk" TO "project_documents_default_project_id_fkey";--> statement-breakpoint
ALTER INDEX "project_documents_created_idx" RENAME TO "project_documents_default_created_idx";--> statement-breakpoint
ALTER INDEX "project_documents_records_time_idx" RENAME TO "project_documents_default_records_time_idx";--> statement-breakpoint
ALTER INDEX "project_documents_table_records_idx" RENAME TO "project_documents_default_table_records_idx";--> statement-breakpoint
-- The table designer's statistics follow its record indexes onto the partition (tables/record-index.ts).
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_statistic_ext WHERE stxname = 'project_documents_table_stats') THEN
    ALTER STATISTICS "project_documents_table_stats" RENAME TO "project_documents_default_tstats";
  END IF;
END $$;--> statement-breakpoint
CREATE TABLE "project_documents" (
	"project_id" text NOT NULL,
	"collection" text NOT NULL,
	"id" text NOT NULL,
	"doc" jsonb NOT NULL,
	"create_time" timestamp (3) with time zone NOT NULL,
	"update_time" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "project_documents_project_id_collection_id_pk" PRIMARY KEY("project_id","collection","id")
) PARTITION BY LIST ("project_id");--> statement-breakpoint
ALTER TABLE "project_documents" ADD CONSTRAINT "project_documents_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_documents_created_idx" ON "project_documents" USING btree ("project_id","collection","create_time","id");--> statement-breakpoint
CREATE INDEX "project_documents_records_time_idx" ON "project_documents" USING btree ("create_time") WHERE "project_documents"."collection" = 'data_record';--> statement-breakpoint
CREATE INDEX "project_documents_table_records_idx" ON "project_documents" USING btree ("project_id",("doc" ->> 'table'),"create_time","id") WHERE "project_documents"."collection" = 'table_record';--> statement-breakpoint
-- The old table's key, indexes and foreign key match the parent's: attaching adopts them as they are.
ALTER TABLE "project_documents" ATTACH PARTITION "project_documents_default" DEFAULT;--> statement-breakpoint
CREATE TRIGGER "project_collection_stats_insert" AFTER INSERT ON "project_documents" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "project_collection_stats_apply"();--> statement-breakpoint
CREATE TRIGGER "project_collection_stats_delete" AFTER DELETE ON "project_documents" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "project_collection_stats_apply"();--> statement-breakpoint
CREATE TRIGGER "project_collection_stats_update" AFTER UPDATE ON "project_documents" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "project_collection_stats_apply"();--> statement-breakpoint
CREATE TRIGGER "project_collection_stats_truncate" AFTER TRUNCATE ON "project_documents"
  FOR EACH STATEMENT EXECUTE FUNCTION "project_collection_stats_apply"();--> statement-breakpoint
-- A deleted project's own partition (empty by then: its rows went by the foreign key) and its CHECK
-- on the default partition go with it. Given ids; `project_documents_prune` finds them itself.
CREATE FUNCTION "project_documents_release"(ids text[]) RETURNS void LANGUAGE plpgsql SET search_path = public AS $$
DECLARE
  hash text;
BEGIN
  FOR hash IN SELECT md5(id) FROM unnest(ids) AS id LOOP
    IF to_regclass('project_documents_p_' || hash) IS NOT NULL THEN
      EXECUTE format('DROP TABLE %I', 'project_documents_p_' || hash);
    END IF;
    IF EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'project_documents_default'::regclass
        AND conname = 'project_documents_default_not_' || hash) THEN
      EXECUTE format('ALTER TABLE project_documents_default DROP CONSTRAINT %I', 'project_documents_default_not_' || hash);
    END IF;
  END LOOP;
END
$$;--> statement-breakpoint
-- Own partitions and CHECKs of projects that no longer exist (after a platform restore's TRUNCATE).
CREATE FUNCTION "project_documents_prune"() RETURNS void LANGUAGE plpgsql SET search_path = public AS $$
DECLARE
  name text;
BEGIN
  FOR name IN SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'project_documents'::regclass AND c.relname <> 'project_documents_default'
        AND NOT EXISTS (SELECT 1 FROM projects p WHERE c.relname = 'project_documents_p_' || md5(p.id)) LOOP
    EXECUTE format('DROP TABLE %I', name);
  END LOOP;
  FOR name IN SELECT conname FROM pg_constraint WHERE conrelid = 'project_documents_default'::regclass
      AND conname LIKE 'project\_documents\_default\_not\_%'
      AND NOT EXISTS (SELECT 1 FROM projects p WHERE conname = 'project_documents_default_not_' || md5(p.id)) LOOP
    EXECUTE format('ALTER TABLE project_documents_default DROP CONSTRAINT %I', name);
  END LOOP;
END
$$;--> statement-breakpoint
CREATE FUNCTION "project_documents_forget"() RETURNS trigger LANGUAGE plpgsql SET search_path = public AS $$
BEGIN
  PERFORM project_documents_release(array(SELECT id FROM old_rows));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "project_documents_forget" AFTER DELETE ON "projects" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "project_documents_forget"();
