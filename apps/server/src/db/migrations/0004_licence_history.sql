CREATE TABLE "licence_history" (
	"id" text PRIMARY KEY NOT NULL,
	"time" timestamp with time zone DEFAULT now() NOT NULL,
	"platform" text NOT NULL,
	"cpu_id" text NOT NULL,
	"uuid" text,
	"bios_addr" text,
	"base_board_serial_number" text,
	"bios_serial_number" text,
	"bios_version" text,
	"mac_address" text,
	"machine_code" text NOT NULL,
	"licence_id" text NOT NULL,
	"product" text NOT NULL,
	"key_id" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"licensee" text,
	"start_time" text NOT NULL,
	"end_time" text NOT NULL,
	"validity_period" integer NOT NULL,
	"user_count" integer NOT NULL,
	"features" jsonb NOT NULL,
	"grant" jsonb NOT NULL,
	"applied_by" text NOT NULL,
	"file_sha256" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "licence_history_time_idx" ON "licence_history" USING btree ("time","id");