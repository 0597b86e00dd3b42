import { checkPassword } from '@gantry/shared';
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';

/** The shared password rules (length 6–30, letters and digits), with translated messages. */
export function passwordRules(t: TFunction): FormRule[] {
  return [
    { required: true, message: t('password.required') },
    {
      validator: (_rule, value: unknown) => {
        if (typeof value !== 'string' || value === '') return Promise.resolve();
        const problem = checkPassword(value);
        return problem ? Promise.reject(new Error(t(problem))) : Promise.resolve();
      },
    },
  ];
}

/** The repeat field must equal `field`. */
export function repeatRules(t: TFunction, field: string): FormRule[] {
  return [
    { required: true, message: t('password.required') },
    ({ getFieldValue }) => ({
      validator: (_rule, value: unknown) =>
        !value || getFieldValue(field) === value
          ? Promise.resolve()
          : Promise.reject(new Error(t('password.mismatch'))),
    }),
  ];
}
