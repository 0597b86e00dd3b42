CREATE TABLE "project_backups" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"item" jsonb NOT NULL,
	"module_rules" jsonb NOT NULL,
	"excluded_dirs" jsonb NOT NULL,
	"documents" jsonb NOT NULL,
	"bytes" bigint NOT NULL,
	"file" text,
	"restore_file" text,
	"source_project_id" text NOT NULL,
	"safety" boolean DEFAULT false NOT NULL,
	"task_id" text,
	"create_time" timestamp (3) with time zone NOT NULL,
	"update_time" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "restore_staging" (
	"restore_id" text NOT NULL,
	"collection" text NOT NULL,
	"id" text NOT NULL,
	"doc" jsonb NOT NULL,
	"create_time" timestamp (3) with time zone NOT NULL,
	"update_time" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "restore_staging_restore_id_collection_id_pk" PRIMARY KEY("restore_id","collection","id")
);
--> statement-breakpoint
ALTER TABLE "project_backups" ADD CONSTRAINT "project_backups_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_backups_list_idx" ON "project_backups" USING btree ("project_id","type","create_time");