-- Staged restore documents are scratch: a crash before a restore commits rolls it back and removes
-- them, and after the commit they are not needed. Unlogged, they skip the write-ahead log (a restore
-- writes each document twice: here, then into project_documents).
ALTER TABLE "restore_staging" SET UNLOGGED;
