import { BACKUP_LIMITS } from '@gantry/shared';
import { Checkbox, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** 'add code' with the verification code field: `null` while a chosen code is still empty (§2, §5). */
export function CodeField({ onChange, disabled }: { onChange: (code: string | null) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const [add, setAdd] = useState(false);
  const [code, setCode] = useState('');
  const update = (nextAdd: boolean, nextCode: string) => {
    setAdd(nextAdd);
    setCode(nextCode);
    onChange(nextAdd ? (nextCode === '' ? null : nextCode) : '');
  };
  return (
    <div style={{ display: 'grid', gap: 8 }}>
      <Checkbox
        checked={add}
        disabled={disabled}
        onChange={(event) => update(event.target.checked, code)}
        data-testid="backup-add-code"
      >
        {t('backups.addCode')}
      </Checkbox>
      {add && (
        <>
          <Input.Password
            placeholder={t('backups.code')}
            maxLength={BACKUP_LIMITS.passwordMax}
            value={code}
            disabled={disabled}
            onChange={(event) => update(true, event.target.value)}
            autoComplete="new-password"
            data-testid="backup-code"
          />
          {code === '' && (
            <span className="ant-form-item-explain-error" data-testid="backup-code-hint">
              {t('backup.passwordRequired')}
            </span>
          )}
        </>
      )}
    </div>
  );
}
