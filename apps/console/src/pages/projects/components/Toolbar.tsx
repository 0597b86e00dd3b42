import {
  AppstoreOutlined,
  DeleteOutlined,
  FilterOutlined,
  SearchOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Badge, Button, Flex, Input, Radio, Space } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PROJECT_SCOPES, type ProjectScope } from '../projectFilter';
import type { ProjectViewMode } from '../viewMode';
import { AddProjectButton } from './AddProjectButton';

export interface ToolbarProps {
  isAdmin: boolean;
  search: string;
  onSearch: (name: string) => void;
  activeFilters: number;
  onOpenFilter: () => void;
  scope: ProjectScope;
  onScope: (scope: ProjectScope) => void;
  mode: ProjectViewMode;
  onMode: (mode: ProjectViewMode) => void;
  selectedCount: number;
  onBatchDelete: () => void;
  /** Batch change of the extension fields (settings/project). */
  batchChange?: ReactNode;
}

/** Search, advanced filter, scope (administrator), view toggle, batch delete and add. */
export function Toolbar(props: ToolbarProps) {
  const { t } = useTranslation();
  const { isAdmin, search, activeFilters, scope, mode, selectedCount } = props;
  const [text, setText] = useState(search);
  useEffect(() => setText(search), [search]);

  return (
    <Flex wrap gap={12} justify="space-between" align="center" style={{ marginBottom: 12 }}>
      <Space wrap>
        <Space.Compact>
          <Input
            data-testid="project-search"
            allowClear
            placeholder={t('project.searchPlaceholder')}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              // emptying the box (or its clear button) drops the name condition
              if (!e.target.value && search) props.onSearch('');
            }}
            onPressEnter={() => props.onSearch(text.trim())}
            style={{ width: 220 }}
          />
          <Button
            icon={<SearchOutlined />}
            aria-label={t('project.search')}
            data-testid="project-search-submit"
            onClick={() => props.onSearch(text.trim())}
          />
        </Space.Compact>
        <Badge count={activeFilters} size="small">
          <Button icon={<FilterOutlined />} data-testid="project-filter-open" onClick={props.onOpenFilter}>
            {t('project.filter')}
          </Button>
        </Badge>
        {isAdmin ? (
          <Radio.Group
            optionType="button"
            value={scope}
            onChange={(e) => props.onScope(e.target.value as ProjectScope)}
            data-testid="project-scope"
          >
            {PROJECT_SCOPES.map((value) => (
              <Radio key={value} value={value} data-testid={`project-scope-${value}`}>
                {t(`project.scope.${value}`)}
              </Radio>
            ))}
          </Radio.Group>
        ) : null}
      </Space>
      <Space wrap>
        <Radio.Group
          optionType="button"
          value={mode}
          onChange={(e) => props.onMode(e.target.value as ProjectViewMode)}
          data-testid="project-view-toggle"
        >
          <Radio value="card" data-testid="project-view-card" aria-label={t('project.viewCard')}>
            <AppstoreOutlined />
          </Radio>
          <Radio value="list" data-testid="project-view-list" aria-label={t('project.viewList')}>
            <UnorderedListOutlined />
          </Radio>
        </Radio.Group>
        {props.batchChange}
        <Button
          danger
          icon={<DeleteOutlined />}
          disabled={selectedCount === 0}
          data-testid="project-batch-delete"
          onClick={props.onBatchDelete}
        >
          {selectedCount > 0 ? t('project.batchDeleteCount', { n: selectedCount }) : t('project.batchDelete')}
        </Button>
        <AddProjectButton isAdmin={isAdmin} />
      </Space>
    </Flex>
  );
}
