import { CloseOutlined } from '@ant-design/icons';
import { Button, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { industryLabel } from '../options';
import { FILTER_FIELDS, type FilterField, type ProjectFilter } from '../projectFilter';

export interface FilterChipsProps {
  filter: ProjectFilter;
  ownerName: (id: string) => string;
  onRemove: (field: FilterField) => void;
  onClear: () => void;
}

/** The active conditions as closable tags after 'filter conditions', with a clear button (console.md §2). */
export function FilterChips({ filter, ownerName, onRemove, onClear }: FilterChipsProps) {
  const { t } = useTranslation();
  const active = FILTER_FIELDS.filter((field) => filter[field] !== undefined);
  if (active.length === 0) return null;

  const text = (field: FilterField): string => {
    switch (field) {
      case 'name':
        return t('common.labelValue', { label: t('project.name'), value: filter.name ?? '' });
      case 'status':
        return t('common.labelValue', {
          label: t('project.status'),
          value: t(filter.status ? 'project.enabled' : 'project.disabled'),
        });
      case 'industry':
        return t('common.labelValue', { label: t('project.industry'), value: industryLabel(t, filter.industry) });
      case 'user':
        return t('common.labelValue', { label: t('project.owner'), value: ownerName(filter.user ?? '') });
      case 'createTime':
        return t('common.labelValue', {
          label: t('project.createTime'),
          value: `${filter.createTime?.[0]} ~ ${filter.createTime?.[1]}`,
        });
    }
  };

  return (
    <Space wrap size={[4, 8]} data-testid="project-filter-chips" style={{ marginBottom: 12 }}>
      <span className="gantry-text-secondary">{t('common.label', { label: t('project.filterConditions') })}</span>
      {active.map((field) => (
        <Tag
          key={field}
          closable
          closeIcon={<CloseOutlined data-testid={`project-filter-chip-${field}-remove`} />}
          onClose={(event) => {
            event.preventDefault();
            onRemove(field);
          }}
          data-testid={`project-filter-chip-${field}`}
        >
          {text(field)}
        </Tag>
      ))}
      <Button type="link" size="small" data-testid="project-filter-clear" onClick={onClear}>
        {t('project.filterClear')}
      </Button>
    </Space>
  );
}
