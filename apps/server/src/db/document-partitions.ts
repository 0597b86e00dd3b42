import { createHash } from 'node:crypto';

/**
 * Names of project_documents' partitions (migration 0020, whose SQL functions use the same ones):
 * every project's rows are in the default partition until a large restore gives the project its own,
 * named by the md5 of its id (ids are free text, a table name is not).
 */
export const DEFAULT_PARTITION = 'project_documents_default';

export const md5Hex = (text: string) => createHash('md5').update(text).digest('hex');

export const ownPartitionName = (projectId: string) => `project_documents_p_${md5Hex(projectId)}`;
