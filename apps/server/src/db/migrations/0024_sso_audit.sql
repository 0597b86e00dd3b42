CREATE TABLE "sso_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"issuer" text DEFAULT '' NOT NULL,
	"client_id" text DEFAULT '' NOT NULL,
	"client_secret_encrypted" text,
	"scopes" text DEFAULT 'openid profile email' NOT NULL,
	"account_claim" text DEFAULT 'preferred_username' NOT NULL,
	"button_name" text DEFAULT '' NOT NULL,
	"unknown_account" text DEFAULT 'refuse' NOT NULL,
	"tenant_type" integer DEFAULT 0 NOT NULL,
	"tenant_industry" text DEFAULT 'other' NOT NULL,
	"tenant_password_login" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_logins" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"browser_hash" text NOT NULL,
	"nonce" text DEFAULT '' NOT NULL,
	"code_verifier" text DEFAULT '' NOT NULL,
	"redirect_uri" text DEFAULT '' NOT NULL,
	"return_path" text NOT NULL,
	"user_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_accounts" (
	"issuer" text NOT NULL,
	"account" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_accounts_pk" PRIMARY KEY("issuer","account")
);
--> statement-breakpoint
ALTER TABLE "sso_logins" ADD CONSTRAINT "sso_logins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "sso_accounts" ADD CONSTRAINT "sso_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "sso_logins_expires_idx" ON "sso_logins" USING btree ("expires_at");
--> statement-breakpoint
CREATE INDEX "sso_accounts_user_idx" ON "sso_accounts" USING btree ("user_id");
--> statement-breakpoint
CREATE INDEX "audit_object_at_idx" ON "audit_log" USING btree ("object_id","at","id");
