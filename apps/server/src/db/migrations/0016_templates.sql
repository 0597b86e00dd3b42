CREATE TABLE "templates" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"developer" text NOT NULL,
	"contact" text DEFAULT '' NOT NULL,
	"industry" text NOT NULL,
	"intro" text DEFAULT '' NOT NULL,
	"cover" text,
	"description" text DEFAULT '' NOT NULL,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"app_info" jsonb NOT NULL,
	"plan_detail" jsonb,
	"modules" jsonb NOT NULL,
	"source" text NOT NULL,
	"owner_id" text,
	"published" boolean DEFAULT true NOT NULL,
	"num_installed" integer DEFAULT 0 NOT NULL,
	"file" text NOT NULL,
	"bytes" bigint NOT NULL,
	"version" text,
	"source_project_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "templates_gallery_idx" ON "templates" USING btree ("published","industry","updated_at");--> statement-breakpoint
CREATE INDEX "templates_owner_idx" ON "templates" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "templates_name_trgm_idx" ON "templates" USING gin ("name" gin_trgm_ops);