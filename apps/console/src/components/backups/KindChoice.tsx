import { Checkbox } from 'antd';
import { useTranslation } from 'react-i18next';

/** The content kinds of either backup family, each named by the same words (`backups.kind.*`). */
export type AnyBackupKind = 'fileServer' | 'html' | 'mongodb' | 'database';

/** Whether `kinds` holds `kind` (of any family). */
export const hasKind = (kinds: readonly AnyBackupKind[], kind: AnyBackupKind) => kinds.includes(kind);

/**
 * The content kinds with a select-all box, indeterminate when only some are chosen (§2). `sizes`
 * (whole MB per kind) are shown with each kind when known. Test ids `<prefix>-kind-<kind>`.
 */
export function KindChoice<K extends AnyBackupKind>({
  prefix,
  offered,
  value = [],
  onChange,
  sizes,
}: {
  prefix: string;
  offered: readonly K[];
  value?: K[];
  onChange?: (value: K[]) => void;
  sizes?: Partial<Record<K, number>>;
}) {
  const { t } = useTranslation();
  const label = (kind: K) => {
    const size = sizes?.[kind];
    return size === undefined ? t(`backups.kind.${kind}`) : `${t(`backups.kind.${kind}`)} (${size} MB)`;
  };
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', columnGap: 16, rowGap: 8 }}>
      <Checkbox
        checked={value.length > 0 && value.length === offered.length}
        indeterminate={value.length > 0 && value.length < offered.length}
        onChange={(event) => onChange?.(event.target.checked ? [...offered] : [])}
        data-testid={`${prefix}-kind-all`}
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
          data-testid={`${prefix}-kind-${kind}`}
        >
          {label(kind)}
        </Checkbox>
      ))}
    </div>
  );
}
