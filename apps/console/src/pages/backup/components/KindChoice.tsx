import { BACKUP_KINDS, type BackupKind } from '@gantry/shared';
import { Checkbox } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The content kinds with a select-all box, indeterminate when only some are chosen (§2). `sizes`
 * (whole MB per kind) are shown with each kind when known.
 */
export function KindChoice({
  value = [],
  onChange,
  offered = BACKUP_KINDS,
  sizes,
}: {
  value?: BackupKind[];
  onChange?: (value: BackupKind[]) => void;
  offered?: readonly BackupKind[];
  sizes?: Partial<Record<BackupKind, number>>;
}) {
  const { t } = useTranslation();
  const label = (kind: BackupKind) => {
    const size = sizes?.[kind];
    return size === undefined ? t(`backups.kind.${kind}`) : `${t(`backups.kind.${kind}`)} (${size} MB)`;
  };
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
      <Checkbox
        checked={value.length === offered.length}
        indeterminate={value.length > 0 && value.length < offered.length}
        onChange={(event) => onChange?.(event.target.checked ? [...offered] : [])}
        data-testid="backup-kind-all"
      >
        {t('backups.all')}
      </Checkbox>
      {offered.map((kind) => (
        <Checkbox
          key={kind}
          checked={value.includes(kind)}
          onChange={(event) =>
            onChange?.(offered.filter((k) => (k === kind ? event.target.checked : value.includes(k))))
          }
          data-testid={`backup-kind-${kind}`}
        >
          {label(kind)}
        </Checkbox>
      ))}
    </div>
  );
}
