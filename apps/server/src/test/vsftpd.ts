/**
 * A private vsftpd for the FTP storage tests (issue 13 §2): Debian's /usr/sbin/vsftpd, run in the
 * foreground on 127.0.0.1 with a free port, its own config file, certificate and folder under a
 * temporary directory. Installed by .ci/run; a missing vsftpd fails the tests (no skip).
 *
 * Login: a local user (`gantry-ftp-test`, shell /usr/sbin/nologin, created when missing) checked by
 * pam_unix through a PAM service of its own (`/etc/pam.d/gantry-ftp-test`, written when missing), so
 * a wrong password is a real 530. This needs root, as CI runs. The user is chrooted into the
 * instance's folder (`root`), which it owns.
 *
 * `diskBytes` puts that folder on a tmpfs of that size (root can mount) for the disk-full test.
 * `stop()` ends the spawned vsftpd and the session processes it forked (and only those), and cleans up.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FtpConnection, FtpTls } from '../modules/ftp/ftp-storage.js';
import { freePort, sleep } from './server-process.js';

export const VSFTPD = '/usr/sbin/vsftpd';
export const FTP_TEST_USER = 'gantry-ftp-test';
/** The throwaway test account's password (a nologin account reachable only over FTP). */
export const FTP_TEST_PASSWORD = 'Ftp-test-4b9e2c';
const PAM_SERVICE = 'gantry-ftp-test';

export interface Vsftpd {
  host: string;
  port: number;
  /** the chroot folder on this machine ("/" on the server) */
  root: string;
  pid: number;
  /** a connection to this server (override any field) */
  connection(overrides?: Partial<FtpConnection>): FtpConnection;
  /** stops the server and its sessions (SIGKILL to its process group) and removes its files */
  stop(): Promise<void>;
  /** stops the server and its sessions at once, keeping its files (the 'server stopped' fault) */
  kill(): Promise<void>;
  /** ends the session processes only (a dropped connection); the server goes on listening */
  killSessions(): void;
}

export function assertVsftpdInstalled(): void {
  if (!existsSync(VSFTPD)) {
    throw new Error(
      `vsftpd is not installed (${VSFTPD}): run "apt-get install -y vsftpd" as root (.ci/run installs it).`,
    );
  }
  if (process.getuid?.() !== 0) {
    throw new Error('The vsftpd tests run as root (they create a test user and its PAM service); CI runs as root.');
  }
}

/**
 * Runs `step` again while it fails (test files start their servers in parallel: useradd and chpasswd
 * refuse while another holds the lock on /etc/passwd or /etc/shadow).
 */
async function withRetries<T>(step: () => T): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return step();
    } catch (error) {
      if (attempt >= 30) throw error;
      await sleep(100);
    }
  }
}

async function ensureUser(): Promise<{ uid: number; gid: number }> {
  const pam = `/etc/pam.d/${PAM_SERVICE}`;
  const pamText = [
    '# Gantry FTP storage tests: the test vsftpd checks passwords with pam_unix only.',
    'auth required pam_unix.so nodelay',
    'account required pam_permit.so',
    'session required pam_permit.so',
    '',
  ].join('\n');
  if (!existsSync(pam) || readFileSync(pam, 'utf8') !== pamText) {
    // Written aside and renamed: a login reading it meanwhile sees the whole file.
    const aside = `${pam}.${process.pid}`;
    writeFileSync(aside, pamText, { mode: 0o644 });
    renameSync(aside, pam);
  }
  const lookup = () => execFileSync('id', ['-u', FTP_TEST_USER], { encoding: 'utf8' }).trim();
  await withRetries(() => {
    try {
      lookup();
    } catch {
      execFileSync(
        'useradd',
        ['--system', '--no-create-home', '--home-dir', '/', '--shell', '/usr/sbin/nologin', FTP_TEST_USER],
        { stdio: 'ignore' },
      );
    }
  });
  // A fixed SHA-512 crypt of the password: set only when the account's differs, so that parallel
  // starts do not each rewrite /etc/shadow.
  const hash = execFileSync('openssl', ['passwd', '-6', '-salt', 'gantryftptest', FTP_TEST_PASSWORD], {
    encoding: 'utf8',
  }).trim();
  const current = readFileSync('/etc/shadow', 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`${FTP_TEST_USER}:`))
    ?.split(':')[1];
  if (current !== hash) {
    await withRetries(() =>
      execFileSync('chpasswd', ['-e'], { input: `${FTP_TEST_USER}:${hash}\n`, stdio: ['pipe', 'ignore', 'ignore'] }),
    );
  }
  const gid = execFileSync('id', ['-g', FTP_TEST_USER], { encoding: 'utf8' }).trim();
  return { uid: Number(lookup()), gid: Number(gid) };
}

/** The processes started by `pid`, at any depth (vsftpd forks two per session, each a session leader). */
function descendantsOf(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((pair): pair is [number, number] => pair.length === 2 && !Number.isNaN(pair[0]));
  const found: number[] = [];
  let parents = [pid];
  while (parents.length > 0) {
    const children = table.filter(([, parent]) => parents.includes(parent)).map(([child]) => child);
    found.push(...children);
    parents = children;
  }
  return found;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`vsftpd stopped at start (${child.exitCode ?? child.signalCode}): ${output()}`);
    }
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(50);
  }
  throw new Error(`vsftpd did not listen on ${port} within 10 s: ${output()}`);
}

export interface VsftpdOptions {
  tls?: FtpTls;
  /** the served folder on a tmpfs of this size (the disk-full fault) */
  diskBytes?: number;
  /** transfer rate limit per session (bytes/s), to stop a transfer halfway on purpose */
  maxRateBytes?: number;
}

export async function startVsftpd(options: VsftpdOptions = {}): Promise<Vsftpd> {
  assertVsftpdInstalled();
  const tls = options.tls ?? 'none';
  const { uid, gid } = await ensureUser();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-vsftpd-'));
  chmodSync(dir, 0o755);
  const root = path.join(dir, 'root');
  mkdirSync(root);
  let mounted = false;
  if (options.diskBytes) {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${options.diskBytes},mode=0755`, 'tmpfs', root]);
    mounted = true;
  }
  chownSync(root, uid, gid);
  chmodSync(root, 0o755);

  const port = await freePort();
  const pasvMin = randomInt(40_000, 60_000);
  const lines = [
    'listen=YES',
    'listen_ipv6=NO',
    'listen_address=127.0.0.1',
    `listen_port=${port}`,
    'background=NO',
    'anonymous_enable=NO',
    'local_enable=YES',
    'write_enable=YES',
    'local_umask=022',
    'chroot_local_user=YES',
    'allow_writeable_chroot=YES',
    `local_root=${root}`,
    `pam_service_name=${PAM_SERVICE}`,
    'userlist_enable=NO',
    'check_shell=NO',
    'pasv_enable=YES',
    'pasv_address=127.0.0.1',
    `pasv_min_port=${pasvMin}`,
    `pasv_max_port=${pasvMin + 50}`,
    'port_enable=NO',
    'seccomp_sandbox=NO',
    'isolate=NO',
    'isolate_network=NO',
    'delay_failed_login=0',
    'delay_successful_login=0',
    'max_login_fails=10',
    'use_localtime=NO',
    'xferlog_enable=NO',
    'dirmessage_enable=NO',
    'secure_chroot_dir=/var/run/vsftpd/empty',
    `vsftpd_log_file=${path.join(dir, 'vsftpd.log')}`,
  ];
  if (options.maxRateBytes) lines.push(`local_max_rate=${options.maxRateBytes}`);
  if (tls !== 'none') {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    lines.push(
      'ssl_enable=YES',
      `rsa_cert_file=${cert}`,
      `rsa_private_key_file=${key}`,
      'force_local_logins_ssl=YES',
      'force_local_data_ssl=YES',
      'ssl_tlsv1=NO',
      'ssl_sslv2=NO',
      'ssl_sslv3=NO',
      // vsftpd's default: a data connection must resume the control connection's TLS session (basic-ftp does).
      'require_ssl_reuse=YES',
      'ssl_ciphers=HIGH',
      `implicit_ssl=${tls === 'implicit' ? 'YES' : 'NO'}`,
    );
  }
  mkdirSync('/var/run/vsftpd/empty', { recursive: true });
  const config = path.join(dir, 'vsftpd.conf');
  writeFileSync(config, `${lines.join('\n')}\n`, { mode: 0o600 });

  // Its own process group, so that stopping it stops the session processes it forked too.
  const child = spawn(VSFTPD, [config], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('vsftpd did not start');

  const killGroup = async () => {
    const sessions = descendantsOf(pid);
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
    for (const session of sessions) {
      try {
        process.kill(session, 'SIGKILL');
      } catch {
        // ended meanwhile
      }
    }
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise((resolve) => child.once('exit', resolve));
    }
    for (let i = 0; i < 50 && sessions.some(isRunning); i += 1) await sleep(20);
  };

  try {
    await waitForPort(port, child, () => output);
  } catch (error) {
    await killGroup();
    if (mounted) execFileSync('umount', [root]);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  let stopped = false;
  return {
    host: '127.0.0.1',
    port,
    root,
    pid,
    connection(overrides = {}) {
      return {
        host: '127.0.0.1',
        port,
        user: FTP_TEST_USER,
        password: FTP_TEST_PASSWORD,
        remoteFolder: '/gantry',
        tls,
        allowUntrustedCertificate: tls !== 'none',
        ...overrides,
      };
    },
    kill: killGroup,
    killSessions() {
      for (const session of descendantsOf(pid)) {
        try {
          process.kill(session, 'SIGKILL');
        } catch {
          // ended meanwhile
        }
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await killGroup();
      if (mounted) execFileSync('umount', ['-l', root]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
