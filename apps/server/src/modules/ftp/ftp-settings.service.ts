import {
  type BackupMessageKey,
  FTP_LIMITS,
  type FtpSettings,
  type FtpSettingsInput,
  type FtpTestResult,
  type Language,
  translate,
} from '@gantry/shared';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { FtpSettingsRepository, FtpSettingsRow, FtpSettingsValues } from './ftp-settings.repository.js';
import { type FtpConnection, type FtpConnectionSource, FtpStorageError, testFtpConnection } from './ftp-storage.js';
import type { SecretBox } from './secret-box.js';

/** What the sealed password is bound to (the associated data of its encryption). */
const PASSWORD_PURPOSE = 'ftp_settings.password';

const DEFAULTS: FtpSettingsValues = {
  enabled: false,
  host: '',
  port: FTP_LIMITS.defaultPort,
  userName: '',
  passwordEncrypted: null,
  remoteFolder: FTP_LIMITS.defaultFolder,
  tls: 'none',
  allowUntrustedCertificate: false,
};

export interface FtpSettingsDeps {
  db: Database;
  repo: FtpSettingsRepository;
  audit: AuditService;
  clock: Clock;
  /** The key of stored secrets (opened on first use: the key file is created then). */
  secrets: () => Promise<SecretBox>;
  /** Limit of each step of 'test connection' (ms). */
  testTimeoutMs?: number;
  /** Where a failed connection test's English details go. */
  log?: { info(fields: object, message: string): void };
}

/**
 * The administrator's FTP settings (issue 13 §2) and the connection the FTP storage uses. The
 * password is sealed before it is written and opened only to connect; no answer carries it.
 */
export class FtpSettingsService implements FtpConnectionSource {
  constructor(private readonly deps: FtpSettingsDeps) {}

  async view(): Promise<FtpSettings> {
    return present((await this.deps.repo.read()) ?? { ...DEFAULTS });
  }

  /** Saves the settings; a missing password keeps the stored one. Audited in the same transaction. */
  async replace(actor: Actor, input: FtpSettingsInput): Promise<FtpSettings> {
    const { db, repo, audit, clock } = this.deps;
    const box = input.password === undefined ? undefined : await this.deps.secrets();
    const saved = await db.transaction(async (tx) => {
      const current = await repo.lock(tx);
      // The stored password is kept only for the same server and user: it is never sent elsewhere.
      const kept = sameAccount(current, input) ? current.passwordEncrypted : null;
      const passwordEncrypted = box && input.password !== undefined ? box.seal(input.password, PASSWORD_PURPOSE) : kept;
      if (input.enabled && !passwordEncrypted) {
        throw new AppError('validation', { fields: { password: 'ftp.passwordRequired' } });
      }
      const next: FtpSettingsValues = {
        enabled: input.enabled,
        host: input.host,
        port: input.port,
        userName: input.user,
        passwordEncrypted,
        remoteFolder: input.remoteFolder,
        tls: input.tls,
        allowUntrustedCertificate: input.allowUntrustedCertificate,
      };
      await repo.write(tx, next, clock());
      await audit.record(
        actor,
        {
          action: 'ftpSettings.update',
          objectType: 'settings',
          objectId: 'ftp',
          detail: { ...changedFields(current, next), passwordChanged: input.password !== undefined },
        },
        tx,
      );
      return next;
    });
    return present(saved);
  }

  /** The connection when FTP is enabled and configured, the password opened; else null. */
  async connection(): Promise<FtpConnection | null> {
    const row = await this.deps.repo.read();
    if (!row?.enabled || !row.host || !row.userName || !row.passwordEncrypted) return null;
    return this.connectionOf(row, undefined);
  }

  /**
   * 'Test connection' with the posted settings; a missing password tries the stored one. Answers which
   * step failed; a configuration that cannot be tried (no password anywhere) fails as notConfigured.
   * The message is in `language` (the failure's English details go to the server log only).
   */
  async test(input: FtpSettingsInput, language: Language): Promise<FtpTestResult> {
    const notConfigured = (key: BackupMessageKey): FtpTestResult => ({
      ok: false,
      failure: 'notConfigured',
      message: translate(key, language),
    });
    let password = input.password;
    if (password === undefined) {
      const row = await this.deps.repo.read();
      if (!row?.passwordEncrypted) return notConfigured('ftp.error.noPassword');
      // The stored password goes only to the server and user it was saved for.
      if (!sameAccount(row, input)) return notConfigured('ftp.error.accountChanged');
      try {
        password = (await this.connectionOf(row, undefined)).password;
      } catch (error) {
        if (error instanceof FtpStorageError) {
          return { ok: false, failure: error.failure, message: translate(error.key, language) };
        }
        throw error;
      }
    }
    if (input.host === '') return notConfigured('ftp.hostRequired');
    const server = `${input.host}:${input.port}`;
    const result = await testFtpConnection(
      {
        host: input.host,
        port: input.port,
        user: input.user,
        password,
        remoteFolder: input.remoteFolder,
        tls: input.tls,
        allowUntrustedCertificate: input.allowUntrustedCertificate,
      },
      this.deps.testTimeoutMs,
    );
    if (result.ok) {
      return { ok: true, message: translate('ftp.testPassed', language, { server, folder: result.folder }) };
    }
    this.deps.log?.info({ server, failure: result.failure, detail: result.detail }, 'FTP connection test failed');
    return {
      ok: false,
      failure: result.failure,
      message: translate('ftp.testStepFailed', language, { server, reason: translate(result.key, language) }),
    };
  }

  private async connectionOf(row: FtpSettingsRow, password: string | undefined): Promise<FtpConnection> {
    const sealed = row.passwordEncrypted;
    let plain = password;
    if (plain === undefined) {
      if (!sealed) {
        throw new FtpStorageError('notConfigured', 'No FTP password is stored.', { key: 'ftp.error.noPassword' });
      }
      const box = await this.deps.secrets();
      try {
        plain = box.open(sealed, PASSWORD_PURPOSE);
      } catch {
        throw new FtpStorageError(
          'notConfigured',
          'The stored FTP password cannot be decrypted (the secret key changed): enter it again in the FTP settings.',
          { key: 'ftp.error.secretKey' },
        );
      }
    }
    return {
      host: row.host,
      port: row.port,
      user: row.userName,
      password: plain,
      remoteFolder: row.remoteFolder,
      tls: row.tls,
      allowUntrustedCertificate: row.allowUntrustedCertificate,
    };
  }
}

function present(row: FtpSettingsValues): FtpSettings {
  return {
    enabled: row.enabled,
    host: row.host,
    port: row.port,
    user: row.userName,
    passwordSet: row.passwordEncrypted !== null,
    remoteFolder: row.remoteFolder,
    tls: row.tls,
    passive: true,
    allowUntrustedCertificate: row.allowUntrustedCertificate,
  };
}

/** Whether the posted settings name the stored server, port and user (the stored password may go there). */
function sameAccount(row: FtpSettingsValues, input: FtpSettingsInput): boolean {
  return row.host === input.host && row.port === input.port && row.userName === input.user;
}

/** The fields that changed, old → new (never the password). */
function changedFields(before: FtpSettingsValues, after: FtpSettingsValues): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of [
    'enabled',
    'host',
    'port',
    'userName',
    'remoteFolder',
    'tls',
    'allowUntrustedCertificate',
  ] as const) {
    if (before[key] !== after[key]) changed[key] = { from: before[key], to: after[key] };
  }
  return changed;
}
