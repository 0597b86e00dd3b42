import { MEASURES, type MeasurePath } from '@gantry/shared';

/** The licence application form (wording only in console.md §2): who asks, and what for. */
export interface ApplicationValues {
  company: string;
  contact: string;
  phone: string;
  email: string;
  /** Amounts wanted by measure path; empty ones are left out of the request. */
  measures?: Partial<Record<MeasurePath, number | null>>;
  features?: string[];
  remarks?: string;
}

/** What the downloaded request file holds (`licence-request-<machine code>.json`). */
export interface LicenceRequestFile {
  format: 'gantry-licence-request/1';
  machineCode: string;
  requestedAt: string;
  company: string;
  contact: string;
  phone: string;
  email: string;
  measures: Partial<Record<MeasurePath, number>>;
  features: string[];
  remarks: string;
}

/** Digits with spaces or hyphens, an optional leading +: 6 to 20 characters ('Phone format error'). */
export const PHONE_PATTERN = /^\+?\d[\d -]{4,18}\d$/;

export function requestFileName(machineCode: string): string {
  return `licence-request-${machineCode}.json`;
}

export function licenceRequest(machineCode: string, values: ApplicationValues, now = new Date()): LicenceRequestFile {
  const measures: Partial<Record<MeasurePath, number>> = {};
  for (const { path } of MEASURES) {
    const value = values.measures?.[path];
    if (typeof value === 'number') measures[path] = value;
  }
  return {
    format: 'gantry-licence-request/1',
    machineCode,
    requestedAt: now.toISOString(),
    company: values.company.trim(),
    contact: values.contact.trim(),
    phone: values.phone.trim(),
    email: values.email.trim(),
    measures,
    features: values.features ?? [],
    remarks: values.remarks?.trim() ?? '',
  };
}
