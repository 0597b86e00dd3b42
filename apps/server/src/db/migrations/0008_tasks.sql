CREATE TABLE "tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"progress" double precision DEFAULT 0 NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"requester" text NOT NULL,
	"request_id" text NOT NULL,
	"message" text,
	"log" text DEFAULT '' NOT NULL,
	"pause_requested" boolean DEFAULT false NOT NULL,
	"runner" text,
	"heartbeat_at" timestamp (3) with time zone,
	"start_time" timestamp (3) with time zone NOT NULL,
	"end_time" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tasks_status_start_idx" ON "tasks" USING btree ("status","start_time");--> statement-breakpoint
CREATE INDEX "tasks_project_start_idx" ON "tasks" USING btree ("project_id","start_time");--> statement-breakpoint
CREATE INDEX "tasks_updated_idx" ON "tasks" USING btree ("updated_at");