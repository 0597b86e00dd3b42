CREATE TABLE "db_backups" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'dump' NOT NULL,
	"status" text DEFAULT 'success' NOT NULL,
	"item" jsonb NOT NULL,
	"excluded_dirs" jsonb NOT NULL,
	"documents" jsonb NOT NULL,
	"bytes" bigint NOT NULL,
	"file" text NOT NULL,
	"source_project_id" text NOT NULL,
	"task_id" text,
	"create_time" timestamp (3) with time zone NOT NULL,
	"update_time" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "db_backups" ADD CONSTRAINT "db_backups_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "db_backups_list_idx" ON "db_backups" USING btree ("project_id","create_time");