-- The trigger functions name their tables unqualified: pg_restore (and any session with an empty
-- search_path) could not find them. Each function now runs with the schema it was created in.
ALTER FUNCTION "project_counts_apply"() SET search_path = public;--> statement-breakpoint
ALTER FUNCTION "project_collection_stats_apply"() SET search_path = public;--> statement-breakpoint
ALTER FUNCTION "project_collection_stats_forget"() SET search_path = public;
