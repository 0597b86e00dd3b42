CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text NOT NULL,
	"actor_name" text NOT NULL,
	"tenant_id" text,
	"action" text NOT NULL,
	"object_type" text NOT NULL,
	"object_id" text,
	"ip" text,
	"detail" jsonb
);
--> statement-breakpoint
CREATE TABLE "licences" (
	"id" text PRIMARY KEY NOT NULL,
	"grant" jsonb NOT NULL,
	"document" jsonb,
	"installed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"status" boolean DEFAULT true NOT NULL,
	"user_id" text NOT NULL,
	"industry" text,
	"grant" jsonb,
	"project_type" text DEFAULT 'blank' NOT NULL,
	"template_id" text,
	"has_sso" boolean DEFAULT false NOT NULL,
	"remarks" text,
	"bg_color" text,
	"domain" text,
	"domain_key" text,
	"is_use_domain" boolean DEFAULT false NOT NULL,
	"is_use_https" boolean DEFAULT false NOT NULL,
	"port" integer,
	"advanced" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"plan_id" text,
	"logo" text,
	"extra" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"cert_key" text,
	"cert_pem" text,
	"runtime_key_hash" text,
	"usage" jsonb,
	"stats" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"online" boolean DEFAULT false NOT NULL,
	"usage_reported_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "type" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "industry" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "grant" jsonb;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "permissions" jsonb DEFAULT '{"ownTemplates":true,"marketTemplates":true,"blankProjects":true}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "remarks" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "logo" text;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_at_idx" ON "audit_log" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_tenant_at_idx" ON "audit_log" USING btree ("tenant_id","at","id");--> statement-breakpoint
CREATE INDEX "projects_created_idx" ON "projects" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "projects_user_created_idx" ON "projects" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "projects_status_created_idx" ON "projects" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "projects_port_key" ON "projects" USING btree ("port");--> statement-breakpoint
CREATE UNIQUE INDEX "projects_domain_key" ON "projects" USING btree ("domain_key");--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","id");