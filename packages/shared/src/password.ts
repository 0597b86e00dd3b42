import { PASSWORD_MAX, PASSWORD_MIN } from './validations.js';

/** Message keys of the password rules; both sides translate them (see messages.ts). */
export type PasswordProblem = 'password.tooShort' | 'password.tooLong' | 'password.composition';

/** console.md §5: 6 to 30 characters, letters and digits combined. */
export function checkPassword(password: string): PasswordProblem | null {
  if (password.length < PASSWORD_MIN) return 'password.tooShort';
  if (password.length > PASSWORD_MAX) return 'password.tooLong';
  if (!/[A-Za-z]/.test(password) || !/\d/.test(password)) return 'password.composition';
  return null;
}

export const STRENGTH_TIERS = ['weak', 'medium', 'strong', 'best'] as const;
export type StrengthTier = (typeof STRENGTH_TIERS)[number];
export const STRENGTH_PERCENT: Record<StrengthTier, number> = { weak: 25, medium: 50, strong: 75, best: 100 };

export function characterClasses(password: string): number {
  return [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z\d]/].filter((re) => re.test(password)).length;
}

/**
 * console.md §4/§5 strength meter: 12–30 characters with all four classes is best,
 * 8 or more is strong, 6–8 with two classes is medium, anything else weak.
 */
export function passwordStrength(password: string): StrengthTier {
  const length = password.length;
  const classes = characterClasses(password);
  if (length >= 12 && length <= PASSWORD_MAX && classes === 4) return 'best';
  if (length >= 8 && classes >= 2) return 'strong';
  if (length >= PASSWORD_MIN && classes >= 2) return 'medium';
  return 'weak';
}
