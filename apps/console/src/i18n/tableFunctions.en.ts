import type { tableFunctionsZh } from './tableFunctions.zh_Hans';

export const tableFunctionsEn: Record<keyof typeof tableFunctionsZh, string> = {
  'designer.shiftTitle': 'Shift table {{name}}',
  'designer.shiftTarget': 'Target project',
  'designer.shiftTargetRequired': 'Choose the target project',
  'designer.shiftNoTargets': 'The owner has no other project',
  'designer.shiftMode': 'How',
  'designer.shiftCopy': 'Copy (this project keeps the table)',
  'designer.shiftMove': 'Move (the table leaves this project)',
  'designer.shiftHint':
    "The table's fields and all its records go together; it counts against the target project's table grant.",
  'designer.mappingSource': 'Source table',
  'designer.mappingSourceRequired': 'Choose a published source table',
  'designer.mappingHint':
    "A mapping table's fields follow its source; when the source changes, look at the differences in the sync configuration and confirm.",
  'designer.syncTitle': 'Sync configuration: {{name}}',
  'designer.syncIntro': 'What changed in the source since the last sync (version {{from}}) up to version {{to}}:',
  'designer.syncNone': 'The source has not changed since the last sync',
  'designer.syncConfirm': 'Confirm sync',
  'designer.synced': 'Synced',
  'designer.syncValues': 'Records with a value',
};
