CREATE TABLE "db_backup_cycles" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"name" text NOT NULL,
	"hours" integer NOT NULL,
	"enabled" boolean NOT NULL,
	"keep" integer NOT NULL,
	"anchor_at" timestamp (3) with time zone NOT NULL,
	"next_run_at" timestamp (3) with time zone NOT NULL,
	"last_task_id" text,
	"last_run_at" timestamp (3) with time zone,
	"last_status" text,
	"last_message" text,
	"last_ended_at" timestamp (3) with time zone,
	"create_time" timestamp (3) with time zone NOT NULL,
	"update_time" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "db_backup_cycles" ADD CONSTRAINT "db_backup_cycles_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "db_backup_cycles_project_idx" ON "db_backup_cycles" USING btree ("project_id","create_time");--> statement-breakpoint
CREATE INDEX "db_backup_cycles_due_idx" ON "db_backup_cycles" USING btree ("next_run_at") WHERE "db_backup_cycles"."enabled";--> statement-breakpoint
CREATE INDEX "db_backup_cycles_failed_idx" ON "db_backup_cycles" USING btree ("last_ended_at") WHERE "db_backup_cycles"."last_status" = 'failed';