import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  grantSchema,
  isRecord,
  LICENCE_FORMAT,
  type LicenceDocument,
  localDate,
  MACHINE_CODE_PATTERN,
  PLATFORM_PRODUCT,
} from '@gantry/shared';
import { AppError } from '../lib/app-error.js';
import {
  keyIdOf,
  privateKeyFromPem,
  rawPublicKey,
  signLicence,
  verifyLicenceText,
} from '../modules/licence/licence-signature.js';
import { machineCodeOf, readMachineIdentity } from '../modules/licence/machine-identity.js';
import { developmentPrivateKey, trustedKeys } from '../modules/licence/trusted-keys.js';

const USAGE = `The vendor's licence tool.

  npm run licence -- keygen [--out DIR] [--name NAME]
      A new Ed25519 key pair: NAME.private.pem (keep it secret) and NAME.public.txt. Put the public
      key in the server's GANTRY_LICENCE_PUBLIC_KEYS.
  npm run licence -- issue --key FILE.pem|dev --machine CODE [grant options] [--out FILE]
      Signs a licence file. --key dev uses the DEVELOPMENT key (tests and local use only).
      --product NAME (default ${PLATFORM_PRODUCT}), --id ID, --licensee TEXT, --issued-at ISO,
      --start YYYY-MM-DD (default today), --days N (default 365), --users N, --tables N, --points N,
      --calc-points N, --devices N, --screens N, --flows N, --events N, --actions N, --reports N,
      --links N, --features a,b,c, --grant FILE.json (a whole grant; options above override it),
      --request FILE.json (a console licence request: its machineCode and company).
  npm run licence -- inspect FILE [--trust BASE64]...
      Shows a licence file and whether its signature holds for the development key or the given keys.
  npm run licence -- machine
      This machine's code.
`;

/** Option name → path in the grant. */
const MEASURE_OPTIONS = {
  users: 'userCount',
  tables: 'flow.tableCount',
  points: 'dataGathering.point',
  'calc-points': 'dataGathering.calcPoint',
  devices: 'dataGathering.deviceCount',
  screens: 'visual.dashboardCount',
  flows: 'flow.flowCount',
  events: 'eventCount',
  actions: 'eventHandlerCount',
  reports: 'reportCount',
  links: 'dataAnalysisLinkCount',
} as const;

type Output = (line: string) => void;

function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const [head = '', tail] = dotted.split('.');
  if (!tail) {
    target[head] = value;
    return;
  }
  const existing = target[head];
  const inner = isRecord(existing) ? existing : {};
  inner[tail] = value;
  target[head] = inner;
}

function whole(name: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new Error(`--${name} must be a whole number`);
  return Number(text);
}

async function keygen(args: string[], out: Output): Promise<void> {
  const { values } = parseArgs({ args, options: { out: { type: 'string' }, name: { type: 'string' } } });
  const dir = values.out ?? '.';
  const name = values.name ?? 'vendor';
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  await mkdir(dir, { recursive: true });
  const privateFile = path.join(dir, `${name}.private.pem`);
  const publicFile = path.join(dir, `${name}.public.txt`);
  // Either file already there: write neither, or a new private key would sit beside an old public one.
  for (const file of [privateFile, publicFile]) {
    if (existsSync(file)) throw new Error(`${file} already exists; not overwriting it`);
  }
  await writeFile(privateFile, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  const publicText = rawPublicKey(publicKey).toString('base64');
  await writeFile(publicFile, `${publicText}\n`, { flag: 'wx' });
  out(`private key: ${privateFile} (keep it secret)`);
  out(`public key:  ${publicText}`);
  out(`key id:      ${keyIdOf(publicKey)}`);
  out('Trust it with GANTRY_LICENCE_PUBLIC_KEYS=<public key> on the server.');
}

async function issue(args: string[], out: Output): Promise<void> {
  const measureOptions = Object.fromEntries(Object.keys(MEASURE_OPTIONS).map((k) => [k, { type: 'string' as const }]));
  const { values } = parseArgs({
    args,
    options: {
      key: { type: 'string' },
      machine: { type: 'string' },
      product: { type: 'string' },
      id: { type: 'string' },
      licensee: { type: 'string' },
      'issued-at': { type: 'string' },
      start: { type: 'string' },
      days: { type: 'string' },
      features: { type: 'string' },
      grant: { type: 'string' },
      request: { type: 'string' },
      out: { type: 'string' },
      ...measureOptions,
    },
  });
  const request: unknown = values.request ? JSON.parse(await readFile(values.request, 'utf8')) : {};
  const requested = (key: 'machineCode' | 'company') =>
    isRecord(request) && typeof request[key] === 'string' ? request[key] : undefined;
  const machineCode = values.machine ?? requested('machineCode');
  if (!values.key) throw new Error('--key is required (a private key file, or dev)');
  if (!machineCode || !MACHINE_CODE_PATTERN.test(machineCode))
    throw new Error('--machine CODE is required (XXXXX-XXXXX-XXXXX-XXXXX-XXXXX)');
  const key = values.key === 'dev' ? developmentPrivateKey() : privateKeyFromPem(await readFile(values.key, 'utf8'));
  const given: unknown = values.grant
    ? JSON.parse(await readFile(values.grant, 'utf8'))
    : { userCount: 100, flow: { tableCount: 100 }, features: [] };
  if (!isRecord(given)) throw new Error('the grant file must hold a JSON object');
  const grant = given;
  grant.startTime = values.start ?? grant.startTime ?? localDate(new Date());
  grant.validityPeriod = values.days ? whole('days', values.days) : (grant.validityPeriod ?? 365);
  const optionValues = new Map(Object.entries(values));
  for (const [option, dotted] of Object.entries(MEASURE_OPTIONS)) {
    const value = optionValues.get(option);
    if (typeof value === 'string') setPath(grant, dotted, whole(option, value));
  }
  if (values.features !== undefined)
    grant.features = values.features
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
  const parsedGrant = grantSchema.safeParse(grant);
  if (!parsedGrant.success)
    throw new Error(
      `the grant is not valid: ${parsedGrant.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const licensee = values.licensee ?? requested('company');
  const document: LicenceDocument = {
    format: LICENCE_FORMAT,
    id: values.id ?? randomUUID(),
    product: values.product ?? PLATFORM_PRODUCT,
    machineCode,
    issuedAt: values['issued-at'] ?? new Date().toISOString(),
    ...(licensee ? { licensee } : {}),
    grant: parsedGrant.data,
  };
  const text = signLicence(document, key);
  if (values.out) {
    await writeFile(values.out, text);
    out(`licence ${document.id} for ${machineCode} written to ${values.out}`);
  } else {
    out(text.trimEnd());
  }
}

async function inspect(args: string[], out: Output): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { trust: { type: 'string', multiple: true } },
  });
  const file = positionals[0];
  if (!file) throw new Error('inspect needs a licence file');
  const text = await readFile(file, 'utf8');
  // The given keys plus the development key, each marked development or not by its bytes.
  const keys = trustedKeys(values.trust ?? [], false);
  try {
    const verified = verifyLicenceText(text, keys, false);
    out(JSON.stringify(verified.document, null, 2));
    out(`signature: valid (key ${verified.keyId}${verified.development ? ', DEVELOPMENT key' : ''})`);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    out(`signature: NOT valid (${error.code})`);
    throw new Error('the licence file does not verify');
  }
}

/** Runs the tool; returns the exit code. */
export async function runLicenceCli(
  argv: string[],
  out: Output = console.log,
  err: Output = console.error,
): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command === 'keygen') await keygen(args, out);
    else if (command === 'issue') await issue(args, out);
    else if (command === 'inspect') await inspect(args, out);
    else if (command === 'machine') out(machineCodeOf(await readMachineIdentity()));
    else {
      (command && command !== 'help' && command !== '--help' ? err : out)(USAGE);
      return command && command !== 'help' && command !== '--help' ? 2 : 0;
    }
    return 0;
  } catch (error) {
    err(`licence ${command}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await runLicenceCli(process.argv.slice(2));
}
