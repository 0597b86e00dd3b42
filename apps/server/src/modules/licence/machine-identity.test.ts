import { createHash } from 'node:crypto';
import { MACHINE_CODE_PATTERN, machineFields } from '@gantry/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEST_MACHINE, TEST_MACHINE_CODE } from '../../test/test-app.js';
import {
  type MachineIdentity,
  machineCodeOf,
  machineFieldsOf,
  meaningful,
  readMachineIdentity,
} from './machine-identity.js';

const identity = (overrides: Partial<MachineIdentity> = {}): MachineIdentity => ({
  ...TEST_MACHINE,
  macs: [...TEST_MACHINE.macs],
  ...overrides,
});

/** The machine code computed independently: SHA-256, first 125 bits, Crockford base-32, 5 groups. */
function expectedCode(lines: string[]): string {
  const digest = createHash('sha256')
    .update(`gantry-machine/1\n${lines.join('\n')}`)
    .digest('hex');
  const bits = BigInt(`0x${digest}`) >> BigInt(256 - 125);
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let out = '';
  for (let i = 24; i >= 0; i--) out += alphabet[Number((bits >> BigInt(i * 5)) & 31n)];
  return out.match(/.{5}/g)?.join('-') ?? '';
}

describe('machine code', () => {
  it('is a fixed function of the identity (changing it would orphan every issued licence)', () => {
    expect(TEST_MACHINE_CODE).toBe('H43ZD-CT5QX-KPN14-SJQG7-G92FT');
    expect(machineCodeOf(identity())).toBe(TEST_MACHINE_CODE);
    expect(TEST_MACHINE_CODE).toMatch(MACHINE_CODE_PATTERN);
    expect(TEST_MACHINE_CODE).toBe(
      expectedCode([
        'cpu=genuinetest-6-85-7',
        'os=3d1219c7c4c5404aaa1f6d2a48adf000',
        'system=4c4c4544-0042-3510-8052-b4c04f4e4a32',
        'board=BOARD-0001',
        'bios=BIOS-0001',
      ]),
    );
  });

  it('differs when any identifying part differs', () => {
    const variants = [
      identity(),
      identity({ cpuId: 'GenuineTest-6-85-8' }),
      identity({ osUuid: '3d1219c7c4c5404aaa1f6d2a48adf001' }),
      identity({ systemUuid: '4c4c4544-0042-3510-8052-b4c04f4e4a33' }),
      identity({ boardSerial: 'BOARD-0002' }),
      identity({ biosSerial: 'BIOS-0002' }),
      identity({ systemUuid: '', boardSerial: '', biosSerial: '' }),
      identity({ systemUuid: '', boardSerial: '', biosSerial: '', macs: ['3c:ec:ef:00:00:02'] }),
    ];
    const codes = variants.map(machineCodeOf);
    expect(new Set(codes).size).toBe(variants.length);
    for (const code of codes) expect(code).toMatch(MACHINE_CODE_PATTERN);
  });

  it('stays the same across what changes without the machine changing', () => {
    const same = [
      identity({ macs: ['aa:bb:cc:dd:ee:ff', '3c:ec:ef:00:00:01'] }),
      identity({ macs: [] }),
      identity({ systemSerial: 'CHANGED' }),
      identity({ biosVersion: '3.0.0', biosVendor: 'Other', biosDate: '2026-01-01' }),
      identity({ platform: 'windows' }),
      identity({ systemUuid: TEST_MACHINE.systemUuid.toUpperCase(), osUuid: TEST_MACHINE.osUuid.toUpperCase() }),
      identity({ cpuId: TEST_MACHINE.cpuId.toUpperCase() }),
      identity({ osUuid: ` ${TEST_MACHINE.osUuid} ` }),
    ];
    for (const variant of same) expect(machineCodeOf(variant), JSON.stringify(variant)).toBe(TEST_MACHINE_CODE);
  });

  it('ignores firmware placeholders and falls back to the first MAC address only when no hardware id is real', () => {
    const placeholders = identity({
      systemUuid: '03000200-0400-0500-0006-000700080009',
      boardSerial: 'To be filled by O.E.M.',
      biosSerial: 'Default string',
    });
    const none = identity({ systemUuid: '', boardSerial: '', biosSerial: '' });
    expect(machineCodeOf(placeholders)).toBe(machineCodeOf(none));
    expect(
      machineCodeOf(
        identity({ systemUuid: '00000000-0000-0000-0000-000000000000', boardSerial: 'None', biosSerial: 'N/A' }),
      ),
    ).toBe(machineCodeOf(none));
    expect(machineCodeOf(none)).toBe(
      expectedCode(['cpu=genuinetest-6-85-7', 'os=3d1219c7c4c5404aaa1f6d2a48adf000', 'mac=3c:ec:ef:00:00:01']),
    );
    // Without hardware ids the first (sorted) MAC counts, the others do not.
    expect(machineCodeOf({ ...none, macs: ['3c:ec:ef:00:00:01', 'ff:00:00:00:00:09'] })).toBe(machineCodeOf(none));
    expect(machineCodeOf({ ...none, macs: ['00:00:00:00:00:09', '3c:ec:ef:00:00:01'] })).not.toBe(machineCodeOf(none));
    // One real hardware id is enough to stop using the MAC.
    const board = identity({ systemUuid: '', biosSerial: '' });
    expect(machineCodeOf({ ...board, macs: ['00:11:22:33:44:55'] })).toBe(machineCodeOf(board));
  });

  it('tells placeholders from real values', () => {
    for (const placeholder of [
      '',
      '  ',
      '-',
      '0',
      '0000000',
      'FFFFFFFF',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      'None',
      'n/a',
      'NULL',
      'Default String',
      'Not Specified',
      'Not Applicable',
      'not available',
      'To Be Filled By O.E.M.',
      'System Serial Number',
      'System Product Name',
      'Chassis Serial Number',
      'Base Board Serial Number',
      '0123456789',
      '03000200-0400-0500-0006-000700080009',
      '00000000-0000-0000-0000-000000000000',
    ]) {
      expect(meaningful(placeholder), placeholder).toBe('');
    }
    expect(meaningful(undefined)).toBe('');
    expect(meaningful(null)).toBe('');
    expect(meaningful(' PF2ABCDE ')).toBe('PF2ABCDE');
    expect(meaningful('4c4c4544-0042-3510-8052-b4c04f4e4a32')).toBe('4c4c4544-0042-3510-8052-b4c04f4e4a32');
    expect(meaningful('0123456788')).toBe('0123456788');
  });

  it('property: always five Crockford groups, and different system UUIDs give different codes', () => {
    const part = fc.string({ maxLength: 40 });
    fc.assert(
      fc.property(
        fc.record({
          cpuId: part,
          systemUuid: fc.uuid(),
          otherUuid: fc.uuid(),
          boardSerial: part,
          biosSerial: part,
          osUuid: part,
          macs: fc.array(fc.string({ maxLength: 17 }), { maxLength: 3 }),
        }),
        ({ otherUuid, ...parts }) => {
          const a = identity(parts);
          expect(machineCodeOf(a)).toMatch(MACHINE_CODE_PATTERN);
          expect(machineCodeOf(a)).toBe(machineCodeOf(identity({ ...parts, macs: [...parts.macs] })));
          fc.pre(meaningful(parts.systemUuid) !== '' && meaningful(otherUuid) !== '');
          fc.pre(parts.systemUuid.toLowerCase() !== otherUuid.toLowerCase());
          expect(machineCodeOf(identity({ ...parts, systemUuid: otherUuid }))).not.toBe(machineCodeOf(a));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('machine fields (console.md §3 licence history)', () => {
  const WINDOWS = ['baseBoardSerialNumber', 'biosSerialNumber', 'biosVersion', 'cpuId', 'macAddress'];
  const OTHER = ['biosAddr', 'cpuId', 'uuid'];
  const present = (fields: Record<string, unknown>) =>
    Object.entries(fields)
      .filter(([key, value]) => key !== 'platform' && value !== null)
      .map(([key]) => key)
      .sort();

  it('records cpuId, uuid and biosAddr on other systems', () => {
    const fields = machineFieldsOf(identity());
    expect(machineFields.parse(fields)).toEqual(fields);
    expect(present(fields)).toEqual(OTHER);
    expect(fields).toMatchObject({
      platform: 'other',
      cpuId: 'GenuineTest-6-85-7',
      uuid: '4c4c4544-0042-3510-8052-b4c04f4e4a32',
      biosAddr: 'Test BIOS Inc. 2.14.1 2025-03-01',
    });
    // No firmware UUID: the operating system's id stands in.
    expect(machineFieldsOf(identity({ systemUuid: 'Not Specified' })).uuid).toBe(TEST_MACHINE.osUuid);
    expect(machineFieldsOf(identity({ biosVendor: '', biosDate: '' })).biosAddr).toBe('2.14.1');
  });

  it('records board and BIOS serials, BIOS version, CPU id and MAC address on Windows', () => {
    const fields = machineFieldsOf(identity({ platform: 'windows' }));
    expect(machineFields.parse(fields)).toEqual(fields);
    expect(present(fields)).toEqual(WINDOWS);
    expect(fields).toMatchObject({
      platform: 'windows',
      baseBoardSerialNumber: 'BOARD-0001',
      biosSerialNumber: 'BIOS-0001',
      biosVersion: '2.14.1',
      cpuId: 'GenuineTest-6-85-7',
      macAddress: '3c:ec:ef:00:00:01',
    });
    const placeholders = machineFieldsOf(
      identity({ platform: 'windows', boardSerial: 'To be filled by O.E.M.', biosSerial: 'Default string', macs: [] }),
    );
    expect(placeholders).toMatchObject({ baseBoardSerialNumber: '', biosSerialNumber: '', macAddress: '' });
  });
});

describe('this machine', () => {
  it('reads the real identity twice and gets the same code', async () => {
    const first = await readMachineIdentity();
    const second = await readMachineIdentity();
    expect(first.platform).toBe(process.platform === 'win32' ? 'windows' : 'other');
    expect(first.macs).toEqual([...first.macs].sort());
    expect(first.macs.every((mac) => mac === mac.toLowerCase())).toBe(true);
    expect(machineCodeOf(first)).toMatch(MACHINE_CODE_PATTERN);
    expect(machineCodeOf(second)).toBe(machineCodeOf(first));
    expect(machineFieldsOf(second)).toEqual(machineFieldsOf(first));
    expect(machineFields.safeParse(machineFieldsOf(first)).success).toBe(true);
  });
});
