import type { DurationUnit } from '@gantry/shared';
import { InputNumber, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';

export interface DurationValue<U extends DurationUnit> {
  count: number | null;
  unit: U;
}

interface DurationInputProps<U extends DurationUnit> {
  value?: DurationValue<U>;
  onChange?: (value: DurationValue<U>) => void;
  units: readonly U[];
  /** Smallest count (1 unless said otherwise). */
  min?: number;
  /** Applied when the count loses focus and when the unit changes (e.g. the 10-minute floor). */
  normalize?: (count: number, unit: U) => number;
  testId?: string;
}

/** A count (whole number) and a unit, as settings store durations. */
export function DurationInput<U extends DurationUnit>({
  value,
  onChange,
  units,
  min = 1,
  normalize,
  testId,
}: DurationInputProps<U>) {
  const { t } = useTranslation();
  const unit = value?.unit ?? (units[0] as U);
  const count = value?.count ?? null;

  const emit = (nextCount: number | null, nextUnit: U) => {
    const normalized = normalize && typeof nextCount === 'number' ? normalize(nextCount, nextUnit) : nextCount;
    onChange?.({ count: normalized, unit: nextUnit });
  };

  return (
    <Space.Compact data-testid={testId}>
      <InputNumber<number>
        aria-label={t('duration.count')}
        data-testid={testId ? `${testId}-count` : undefined}
        min={min}
        precision={0}
        value={count}
        onChange={(next) => onChange?.({ count: next, unit })}
        onBlur={() => {
          if (normalize && typeof count === 'number' && normalize(count, unit) !== count) emit(count, unit);
        }}
        style={{ width: 120 }}
      />
      <Select<U>
        aria-label={t('duration.unit')}
        data-testid={testId ? `${testId}-unit` : undefined}
        value={unit}
        onChange={(next) => emit(count, next)}
        options={units.map((u) => ({ value: u, label: t(`unit.${u}`) }))}
        style={{ width: 110 }}
      />
    </Space.Compact>
  );
}
