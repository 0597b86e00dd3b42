import { ArrowDownOutlined, ArrowUpOutlined, SettingOutlined } from '@ant-design/icons';
import { TABLE_DENSITIES, type TableSetting, tableSetting } from '@gantry/shared';
import { Button, Checkbox, Divider, InputNumber, Popover, Radio, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../i18n';
import { toast } from '../../services/feedback';
import type { ColumnOption, Density } from './layout';

interface Draft {
  order: string[];
  checked: string[];
  density: Density;
  pageSize: number | null;
}

export interface ColumnSettingsProps {
  /** Every configurable column, in the table's own order. */
  options: ColumnOption[];
  /** The preferences in force (see `effectiveSetting`). */
  setting: TableSetting;
  /** The preferences in force when nothing is stored (the reset button). */
  defaults: TableSetting;
  onSave: (setting: TableSetting) => Promise<void>;
  /** Prefix of the test ids (default `column-settings`). */
  testId?: string;
}

function toDraft(setting: TableSetting): Draft {
  return {
    order: [...(setting.order ?? setting.columns)],
    checked: [...setting.columns],
    density: setting.density,
    pageSize: setting.pageSize,
  };
}

/**
 * The table preferences popover (console.md §3, §5): which columns show and in what order (at least
 * one stays: '至少需要选择一个配置项'), density and page size. Checked by the shared `tableSetting`.
 */
export function ColumnSettings({
  options,
  setting,
  defaults,
  onSave,
  testId = 'column-settings',
}: ColumnSettingsProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Draft>(() => toDraft(setting));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const titles = new Map(options.map((o) => [o.key, o.title]));

  const onOpenChange = (next: boolean) => {
    if (next) {
      setDraft(toDraft(setting));
      setError(null);
    }
    setOpen(next);
  };

  const toggle = (key: string, checked: boolean) => {
    if (!checked && draft.checked.length === 1 && draft.checked.includes(key)) {
      setError(t('table.columnsRequired'));
      return;
    }
    setError(null);
    setDraft((d) => ({ ...d, checked: checked ? [...d.checked, key] : d.checked.filter((k) => k !== key) }));
  };

  const move = (index: number, delta: -1 | 1) => {
    setDraft((d) => {
      const order = [...d.order];
      const target = index + delta;
      const [item] = order.splice(index, 1);
      if (item === undefined || target < 0 || target > order.length) return d;
      order.splice(target, 0, item);
      return { ...d, order };
    });
  };

  const save = async () => {
    const parsed = tableSetting.safeParse({
      columns: draft.order.filter((key) => draft.checked.includes(key)),
      order: draft.order,
      density: draft.density,
      pageSize: draft.pageSize,
      ...(setting.view ? { view: setting.view } : {}),
    });
    if (!parsed.success) {
      setError(translateMessage(parsed.error.issues[0]?.message ?? 'table.columnsRequired'));
      return;
    }
    setSaving(true);
    try {
      await onSave(parsed.data);
      toast.success(t('settings.saved'));
      setOpen(false);
    } catch {
      // reported by the request layer
    } finally {
      setSaving(false);
    }
  };

  const content = (
    <div style={{ width: 260 }} data-testid={`${testId}-panel`}>
      <Typography.Text strong>{t('table.columns')}</Typography.Text>
      <div style={{ maxHeight: 280, overflow: 'auto', marginTop: 8 }}>
        {draft.order.map((key, index) => (
          <div key={key} style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
            <Checkbox
              data-testid={`${testId}-col-${key}`}
              checked={draft.checked.includes(key)}
              onChange={(e) => toggle(key, e.target.checked)}
            >
              {titles.get(key) ?? key}
            </Checkbox>
            <Space size={0}>
              <Tooltip title={t('table.moveUp')}>
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowUpOutlined />}
                  disabled={index === 0}
                  aria-label={t('table.moveUp')}
                  data-testid={`${testId}-up-${key}`}
                  onClick={() => move(index, -1)}
                />
              </Tooltip>
              <Tooltip title={t('table.moveDown')}>
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowDownOutlined />}
                  disabled={index === draft.order.length - 1}
                  aria-label={t('table.moveDown')}
                  data-testid={`${testId}-down-${key}`}
                  onClick={() => move(index, 1)}
                />
              </Tooltip>
            </Space>
          </div>
        ))}
      </div>
      <Divider style={{ margin: '8px 0' }} />
      <Typography.Text strong>{t('table.density')}</Typography.Text>
      <div style={{ margin: '8px 0' }}>
        <Radio.Group
          optionType="button"
          size="small"
          value={draft.density}
          onChange={(e) => setDraft((d) => ({ ...d, density: e.target.value as Density }))}
          options={TABLE_DENSITIES.map((density) => ({
            value: density,
            label: <span data-testid={`${testId}-density-${density}`}>{t(`table.density.${density}`)}</span>,
          }))}
        />
      </div>
      <Space align="center" style={{ marginBottom: 8 }}>
        <Typography.Text strong>{t('table.pageSizeLabel')}</Typography.Text>
        <InputNumber
          data-testid={`${testId}-page-size`}
          min={1}
          precision={0}
          size="small"
          value={draft.pageSize}
          onChange={(value) => setDraft((d) => ({ ...d, pageSize: typeof value === 'number' ? value : null }))}
        />
      </Space>
      {error ? (
        <Typography.Text type="danger" data-testid={`${testId}-error`} style={{ display: 'block', marginBottom: 8 }}>
          {error}
        </Typography.Text>
      ) : null}
      <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
        <Button
          size="small"
          data-testid={`${testId}-reset`}
          onClick={() => {
            setDraft(toDraft(defaults));
            setError(null);
          }}
        >
          {t('table.reset')}
        </Button>
        <Button size="small" type="primary" loading={saving} data-testid={`${testId}-save`} onClick={save}>
          {t('common.save')}
        </Button>
      </Space>
    </div>
  );

  return (
    <Popover trigger="click" placement="bottomRight" open={open} onOpenChange={onOpenChange} content={content}>
      <Button
        icon={<SettingOutlined />}
        title={t('table.settings')}
        aria-label={t('table.settings')}
        data-testid={testId}
      />
    </Popover>
  );
}
