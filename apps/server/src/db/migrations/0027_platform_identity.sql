CREATE TABLE "platform_identity" (
	"singleton" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	CONSTRAINT "platform_identity_singleton" CHECK ("platform_identity"."singleton")
);
--> statement-breakpoint
INSERT INTO "platform_identity" DEFAULT VALUES;
