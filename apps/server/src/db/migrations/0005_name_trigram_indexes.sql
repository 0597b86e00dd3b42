-- `like` filters are case-insensitive regular expressions: pg_trgm GIN indexes serve them on both engines
-- (the embedded engine loads pg_trgm, see pglite-options.ts; on PostgreSQL pg_trgm is a trusted extension).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "audit_like_trgm_idx" ON "audit_log" USING gin ("action" gin_trgm_ops,"actor_id" gin_trgm_ops,"actor_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "projects_name_trgm_idx" ON "projects" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_name_trgm_idx" ON "users" USING gin ("name" gin_trgm_ops);