CREATE TABLE "serial_counters" (
	"name" text PRIMARY KEY NOT NULL,
	"last" bigint NOT NULL
);
