CREATE TABLE "ftp_settings" (
	"id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"host" text DEFAULT '' NOT NULL,
	"port" integer DEFAULT 21 NOT NULL,
	"user_name" text DEFAULT '' NOT NULL,
	"password_encrypted" text,
	"remote_folder" text DEFAULT '/gantry' NOT NULL,
	"tls" text DEFAULT 'none' NOT NULL,
	"allow_untrusted_certificate" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
