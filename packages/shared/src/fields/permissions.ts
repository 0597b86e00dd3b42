import type { PermissionRule, PermissionScope } from './table.js';

/** A project user as record permissions see them: their id, department and roles. */
export interface PermissionSubject {
  userId: string;
  department?: string | undefined;
  roles: readonly string[];
}

/** Whether a configuration applies to the user. */
export function appliesTo(rule: PermissionRule, subject: PermissionSubject): boolean {
  switch (rule.who) {
    case 'all':
      return true;
    case 'users':
      return rule.ids.includes(subject.userId);
    case 'departments':
      return subject.department !== undefined && rule.ids.includes(subject.department);
    case 'roles':
      return subject.roles.some((role) => rule.ids.includes(role));
  }
}

/** §4a: the configurations evaluated top to bottom; the first that applies decides, none: no records. */
export function scopeFor(rules: readonly PermissionRule[], subject: PermissionSubject): PermissionScope {
  return rules.find((rule) => appliesTo(rule, subject))?.records ?? 'none';
}
