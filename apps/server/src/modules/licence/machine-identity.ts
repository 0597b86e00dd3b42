import { createHash } from 'node:crypto';
import type { MachineFields } from '@gantry/shared';

/** What this machine says about itself (read once per process by `readMachineIdentity`). */
export interface MachineIdentity {
  platform: 'windows' | 'other';
  cpuId: string;
  systemUuid: string;
  systemSerial: string;
  boardSerial: string;
  biosSerial: string;
  biosVersion: string;
  biosVendor: string;
  biosDate: string;
  /** The operating system's installation id (/etc/machine-id, the Windows MachineGuid…). */
  osUuid: string;
  /** MAC addresses of physical, non-internal interfaces, lower case, sorted. */
  macs: string[];
}

/** Placeholders firmware reports instead of a real serial or UUID. */
const PLACEHOLDER =
  /^(|-|0+|f+|none|n\/a|null|default string|not specified|not applicable|not available|to be filled by o\.e\.m\.|system serial number|system product name|chassis serial number|base board serial number|0123456789|03000200-0400-0500-0006-000700080009|[0-]+|[f-]+)$/i;

export function meaningful(value: string | undefined | null): string {
  const trimmed = (value ?? '').trim();
  return PLACEHOLDER.test(trimmed) ? '' : trimmed;
}

/** Interfaces that come and go (containers, bridges, VPNs) and say nothing about the machine. */
const TRANSIENT_INTERFACE = /^(lo|docker|veth|br-|virbr|vmnet|vboxnet|tun|tap|wg|zt|utun|llw|awdl|bridge)/i;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The machine code: a SHA-256 of the identity parts that do not change across restarts, shown as
 * five groups of five Crockford base-32 characters. The hardware ids (system UUID, board and BIOS
 * serials) are used when the firmware reports them; MAC addresses (which come and go with adapters)
 * only when it reports none, as on virtual machines and containers. The CPU id and the operating
 * system's id are always included.
 */
export function machineCodeOf(identity: MachineIdentity): string {
  const hardware = [identity.systemUuid, identity.boardSerial, identity.biosSerial].map(meaningful);
  const parts = [
    `cpu=${identity.cpuId.toLowerCase()}`,
    `os=${meaningful(identity.osUuid).toLowerCase()}`,
    ...(hardware.some(Boolean)
      ? [`system=${hardware[0]?.toLowerCase()}`, `board=${hardware[1]}`, `bios=${hardware[2]}`]
      : [`mac=${identity.macs.slice(0, 1).join(',')}`]),
  ];
  return codeOf(`gantry-machine/1\n${parts.join('\n')}`);
}

/**
 * The platform's code (GANTRY_LICENCE_BINDING=platform): the same shape as a machine code, computed
 * from the platform identity stored in its database, so every node of the platform shares it.
 */
export function platformCodeOf(platformId: string): string {
  return codeOf(`gantry-platform/1\nid=${platformId.toLowerCase()}`);
}

/** Five groups of five Crockford base-32 characters of the SHA-256 of `text`. */
function codeOf(text: string): string {
  const digest = createHash('sha256').update(text).digest();
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < 25) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
    if (out.length === 25) break;
  }
  return out.match(/.{5}/g)?.join('-') ?? out;
}

/** The §3 field set recorded in the licence history: Windows fields, or the other systems' fields. */
export function machineFieldsOf(identity: MachineIdentity): MachineFields {
  const none = {
    uuid: null,
    biosAddr: null,
    baseBoardSerialNumber: null,
    biosSerialNumber: null,
    biosVersion: null,
    macAddress: null,
  };
  if (identity.platform === 'windows') {
    return {
      ...none,
      platform: 'windows',
      cpuId: identity.cpuId,
      baseBoardSerialNumber: meaningful(identity.boardSerial),
      biosSerialNumber: meaningful(identity.biosSerial),
      biosVersion: identity.biosVersion,
      macAddress: identity.macs[0] ?? '',
    };
  }
  const bios = [identity.biosVendor, identity.biosVersion, identity.biosDate].filter(Boolean).join(' ');
  return {
    ...none,
    platform: 'other',
    cpuId: identity.cpuId,
    uuid: meaningful(identity.systemUuid) || meaningful(identity.osUuid),
    biosAddr: bios,
  };
}

/** Reads the identity with `systeminformation` (about 0.2 s; call once and keep the promise). */
export async function readMachineIdentity(): Promise<MachineIdentity> {
  // Loaded here, not at start: it is a large module and most starts never read the identity.
  const { default: si } = await import('systeminformation');
  const [cpu, system, bios, board, ids, nets] = await Promise.all([
    si.cpu(),
    si.system(),
    si.bios(),
    si.baseboard(),
    si.uuid(),
    si.networkInterfaces(),
  ]);
  const interfaces = Array.isArray(nets) ? nets : [nets];
  const macs = interfaces
    .filter(
      (n) => !n.internal && !n.virtual && !TRANSIENT_INTERFACE.test(n.iface) && meaningful(n.mac.replaceAll(':', '')),
    )
    .map((n) => n.mac.toLowerCase());
  // The CPU's signature, as Windows reports ProcessorId (vendor, family, model, stepping).
  const cpuId = [cpu.manufacturer, cpu.family, cpu.model, cpu.stepping].map((p) => String(p).trim() || '0').join('-');
  return {
    platform: process.platform === 'win32' ? 'windows' : 'other',
    cpuId,
    systemUuid: system.uuid,
    systemSerial: system.serial,
    boardSerial: board.serial,
    biosSerial: bios.serial ?? '',
    biosVersion: bios.version,
    biosVendor: bios.vendor,
    biosDate: bios.releaseDate,
    osUuid: ids.os,
    macs: [...new Set(macs)].sort(),
  };
}
