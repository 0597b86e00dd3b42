import type { MessageKey } from './all-messages.js';

/**
 * Stable error ids sent as `code` in every error body (spec README, contract 5), with their HTTP
 * status and the message key the server translates.
 */
export const ERRORS = {
  validation: { status: 400, message: 'error.validation' },
  unauthorized: { status: 401, message: 'error.unauthorized' },
  forbidden: { status: 403, message: 'error.forbidden' },
  notFound: { status: 404, message: 'error.notFound' },
  /** The request's address cannot be decoded (a malformed percent-encoding). */
  badUrl: { status: 400, message: 'error.badUrl' },
  payloadTooLarge: { status: 413, message: 'error.payloadTooLarge' },
  tooManyRequests: { status: 429, message: 'error.tooManyRequests' },
  internal: { status: 500, message: 'error.internal' },
  /** A statement ran longer than its limit and was stopped (statement_timeout, or the embedded engine's watchdog). */
  queryTimeout: { status: 503, message: 'error.queryTimeout' },
  /** The database cannot be reached, or the embedded engine is restarting. */
  databaseUnavailable: { status: 503, message: 'error.databaseUnavailable' },
  badCredentials: { status: 400, message: 'auth.badCredentials' },
  accountFrozen: { status: 400, message: 'auth.frozen' },
  accountDisabled: { status: 400, message: 'auth.disabled' },
  adminMissing: { status: 400, message: 'auth.adminMissing' },
  adminExists: { status: 409, message: 'auth.adminExists' },
  captchaRequired: { status: 451, message: 'auth.captchaRequired' },
  captchaInvalid: { status: 451, message: 'auth.captchaInvalid' },
  oldPasswordWrong: { status: 400, message: 'auth.oldPasswordWrong' },
  verifyFailed: { status: 400, message: 'auth.verifyFailed' },
  /** Two-factor sign-in: a wrong or already used code; the pending sign-in unknown, spent or expired. */
  totpCodeWrong: { status: 400, message: 'totp.codeWrong' },
  pendingSignInInvalid: { status: 401, message: 'totp.pendingInvalid' },
  totpAlreadyOn: { status: 409, message: 'totp.alreadyOn' },
  totpNotOn: { status: 409, message: 'totp.notOn' },
  totpNoSetup: { status: 409, message: 'totp.noSetup' },
  totpRequired: { status: 409, message: 'totp.required' },
  /** API tokens: a write with a read-only token; an account-security call with any token. */
  apiTokenReadOnly: { status: 403, message: 'apiToken.readOnly' },
  apiTokenSessionOnly: { status: 403, message: 'apiToken.sessionOnly' },
  apiTokenLimit: { status: 409, message: 'apiToken.tooMany' },
  /** Single sign-on (issue 34 §1): not configured, a failed or replayed answer, the provider down, refusals. */
  ssoDisabled: { status: 404, message: 'sso.disabled' },
  ssoFailed: { status: 400, message: 'sso.failed' },
  ssoProviderUnavailable: { status: 502, message: 'sso.providerUnavailable' },
  ssoUnknownAccount: { status: 403, message: 'sso.unknownAccount' },
  ssoAdminRefused: { status: 403, message: 'sso.adminRefused' },
  passwordLoginDisabled: { status: 403, message: 'sso.passwordLoginDisabled' },
  notImage: { status: 415, message: 'upload.notImage' },
  noFile: { status: 400, message: 'upload.noFile' },
  oneFile: { status: 400, message: 'upload.oneFile' },
  badQuery: { status: 400, message: 'list.badQuery' },
  /** A grant breaks its parent's limits; `fields` says which and why, the message is the first. */
  grantInvalid: { status: 400, message: 'grant.missing' },
  /** Licence problems: the body also carries `license` (the reason), shown as 'please update the license:'. */
  licenceMissing: { status: 400, message: 'licence.missing', licence: true },
  licenceExpired: { status: 400, message: 'licence.expiredOn', licence: true },
  licenceNotYetValid: { status: 400, message: 'licence.notYetValid', licence: true },
  licenceMalformed: { status: 400, message: 'licence.malformed', licence: true },
  licenceTooLarge: { status: 413, message: 'licence.tooLarge', licence: true },
  licenceSignature: { status: 400, message: 'licence.signature', licence: true },
  licenceUntrusted: { status: 400, message: 'licence.untrusted', licence: true },
  licenceDevelopment: { status: 400, message: 'licence.development', licence: true },
  licenceProduct: { status: 400, message: 'licence.product', licence: true },
  licenceMachine: { status: 400, message: 'licence.otherMachine', licence: true },
  licenceTooSmall: { status: 409, message: 'licence.tooSmall', licence: true },
  featureMissing: { status: 400, message: 'licence.featureMissing', licence: true },
  tenantIdTaken: { status: 409, message: 'tenant.idTaken' },
  tenantHasProjects: { status: 409, message: 'tenant.hasProjects' },
  tenantDisabled: { status: 409, message: 'tenant.disabled' },
  notTenantProject: { status: 400, message: 'tenant.notYourProject' },
  projectIdTaken: { status: 409, message: 'project.idTaken' },
  domainTaken: { status: 409, message: 'project.domainTaken' },
  portTaken: { status: 409, message: 'project.portTaken' },
  templateRequired: { status: 400, message: 'project.templateRequired' },
  certificatesRequired: { status: 400, message: 'project.certificatesRequired' },
  certificateFiles: { status: 400, message: 'project.certificateFiles' },
  projectTypeNotAllowed: { status: 403, message: 'project.typeNotAllowed' },
  ownerUnknown: { status: 400, message: 'project.ownerUnknown' },
  runtimeKeyInvalid: { status: 401, message: 'project.runtimeKey' },
  /** The generic data layer: a collection no project has ("a model not found throws an error naming the model"). */
  modelNotFound: { status: 404, message: 'data.modelNotFound' },
  projectHeaderMissing: { status: 400, message: 'data.projectHeaderMissing' },
  projectReadOnly: { status: 409, message: 'data.projectReadOnly' },
  documentInvalid: { status: 400, message: 'data.documentInvalid' },
  documentTooLarge: { status: 413, message: 'data.documentTooLarge' },
  documentIdTaken: { status: 409, message: 'data.idTaken' },
  taskEnded: { status: 409, message: 'task.ended' },
  /** The media library (issue 11 §2): a refused path names the reason (`media.reason.*`). */
  mediaPathInvalid: { status: 400, message: 'media.pathInvalid' },
  mediaNotFound: { status: 404, message: 'media.notFound' },
  mediaExists: { status: 409, message: 'media.exists' },
  mediaNotFolder: { status: 400, message: 'media.notFolder' },
  mediaNotFile: { status: 400, message: 'media.notFile' },
  mediaFileTooLarge: { status: 413, message: 'media.fileTooLarge' },
  mediaTooManyFiles: { status: 400, message: 'media.tooManyFiles' },
  mediaPublicDenied: { status: 403, message: 'media.publicDenied' },
  mediaMoveIntoItself: { status: 400, message: 'media.moveIntoItself' },
  mediaCrossArea: { status: 400, message: 'media.crossArea' },
  /** Project backups (issue 12). An archive refused names the problem (`backup.problem.*`). */
  backupNotFound: { status: 404, message: 'backup.notFound' },
  backupArchiveInvalid: { status: 400, message: 'backup.archiveInvalid' },
  backupUploadNotZip: { status: 400, message: 'backup.uploadNotZip' },
  backupUploadName: { status: 400, message: 'backup.uploadName' },
  backupTooLarge: { status: 413, message: 'backup.tooLarge' },
  backupPasswordWrong: { status: 400, message: 'backup.passwordWrong' },
  backupPartMissing: { status: 400, message: 'backup.partMissing' },
  backupRestoreRunning: { status: 409, message: 'backup.restoreRunning' },
  /** Database backups (issue 13 §1). A project whose database restore runs refuses its data calls: 423 Locked. */
  projectRestoring: { status: 423, message: 'dbBackup.restoring' },
  dbBackupNotWhole: { status: 400, message: 'dbBackup.notWhole' },
  dbBackupFtpUnavailable: { status: 503, message: 'dbBackup.ftpUnavailable' },
  dbBackupFtpFailed: { status: 502, message: 'dbBackup.ftpFailed' },
  /** Periodic database backups (issue 13 §3). */
  dbBackupCycleNotFound: { status: 404, message: 'dbBackupCycle.notFound' },
  dbBackupCycleTooMany: { status: 409, message: 'dbBackupCycle.tooMany' },
  /** Whole-platform backups (issue 13 §4): every API call waits out a platform restore (503). */
  platformRestoring: { status: 503, message: 'platform.restoring' },
  platformBackupNotFound: { status: 404, message: 'platform.notFound' },
  platformTasksRunning: { status: 409, message: 'platform.tasksRunning' },
  /** Project sites (issue 15). */
  siteProjectDisabled: { status: 403, message: 'site.projectDisabled' },
  siteTenantDisabled: { status: 403, message: 'site.tenantDisabled' },
  siteGrantNotStarted: { status: 403, message: 'site.grantNotStarted', licence: true },
  siteGrantEnded: { status: 403, message: 'site.grantEnded', licence: true },
  siteGrantMissing: { status: 403, message: 'site.grantMissing', licence: true },
  siteUserLimit: { status: 409, message: 'site.userLimit', licence: true },
  siteUsernameTaken: { status: 409, message: 'site.usernameTaken' },
  siteRoleUnknown: { status: 400, message: 'site.roleUnknown' },
  siteRoleInUse: { status: 409, message: 'site.roleInUse' },
  siteOwnerOnly: { status: 403, message: 'site.ownerOnly' },
  siteSsoOff: { status: 400, message: 'site.ssoOff' },
  siteSsoCodeInvalid: { status: 401, message: 'site.ssoCodeInvalid' },
  /** A project port outside the administrator's range (settings `sitePorts`): refused before any bind. */
  sitePortOutsideRange: { status: 400, message: 'project.portOutsideRange' },
  sitePortInUse: { status: 409, message: 'site.portInUse' },
  sitePortUnavailable: { status: 409, message: 'site.portUnavailable' },
  siteCertificateInvalid: { status: 400, message: 'site.certificateInvalid' },
  siteCertificateMismatch: { status: 400, message: 'site.certificateMismatch' },
  siteCertificateExpired: { status: 400, message: 'site.certificateExpired' },
  siteCertificateNotYetValid: { status: 400, message: 'site.certificateNotYetValid' },
  /** Tables and records (issue 16). */
  tableNotFound: { status: 404, message: 'table.notFound' },
  tableNameTaken: { status: 409, message: 'table.nameTaken' },
  tableLimit: { status: 409, message: 'table.limit', licence: true },
  /** A restore or template install whose result would hold more tables than the grant (issue 32). */
  tablesOverGrant: { status: 409, message: 'table.overGrant', licence: true },
  tableInvalid: { status: 400, message: 'table.formInvalid' },
  tablePublishFailed: { status: 400, message: 'table.publishFailed' },
  tableNotPublished: { status: 409, message: 'table.notPublished' },
  tableDraftChanged: { status: 409, message: 'table.draftChanged' },
  tableUseDesigner: { status: 409, message: 'table.useDesigner' },
  /** Shift table (issue 32): move or copy a table with its records to another project of the owner. */
  tableShiftSameProject: { status: 400, message: 'table.shiftSameProject' },
  tableShiftOwner: { status: 409, message: 'table.shiftOwner' },
  tableShiftConflict: { status: 409, message: 'table.shiftConflict' },
  tableShiftLimit: { status: 409, message: 'table.shiftLimit', licence: true },
  tableShiftRelation: { status: 409, message: 'table.shiftRelation' },
  tableShiftRelated: { status: 409, message: 'table.shiftRelated' },
  /** Mapping table (issue 32): its source, and the sync that cannot be done ('data sync exception'). */
  tableMappingSource: { status: 400, message: 'table.mappingSource' },
  tableNotMapping: { status: 409, message: 'table.notMapping' },
  tableSyncFailed: { status: 409, message: 'table.syncFailed' },
  recordNotFound: { status: 404, message: 'table.recordNotFound' },
  recordInvalid: { status: 400, message: 'table.formInvalid' },
  projectExpandInvalid: { status: 400, message: 'project.expandInvalid' },
} as const satisfies Record<string, { status: number; message: MessageKey; licence?: true }>;

export type ErrorCode = keyof typeof ERRORS;

/** The JSON body of every non-2xx response. */
export interface ErrorBody {
  message: string;
  code: ErrorCode;
  fields?: Record<string, string>;
  license?: string;
}
