import type { UserRow } from '../modules/users/user.repository.js';

/**
 * Every route states the action it performs (route `config.action`); this module alone decides
 * who may perform it (design D8).
 *  - public: anyone, signed in or not;
 *  - session: every signed-in user, about themselves;
 *  - the rest: named rights.
 */
export const ACTIONS = ['public', 'session', 'settings.read', 'settings.write', 'image.upload'] as const;
export type Action = (typeof ACTIONS)[number];

const ADMIN_ONLY: ReadonlySet<Action> = new Set(['settings.read', 'settings.write', 'image.upload']);

export function can(user: UserRow | undefined, action: Action): boolean {
  if (action === 'public') return true;
  if (!user?.status) return false;
  if (action === 'session') return true;
  if (ADMIN_ONLY.has(action)) return user.isAdmin;
  return false;
}
