CREATE TABLE "site_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "site_sso_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"user_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "site_sessions" ADD CONSTRAINT "site_sessions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_sso_codes" ADD CONSTRAINT "site_sso_codes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_sso_codes" ADD CONSTRAINT "site_sso_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_sessions_subject_idx" ON "site_sessions" USING btree ("project_id","kind","subject");--> statement-breakpoint
CREATE INDEX "site_sessions_expires_idx" ON "site_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "site_sso_codes_expires_idx" ON "site_sso_codes" USING btree ("expires_at");