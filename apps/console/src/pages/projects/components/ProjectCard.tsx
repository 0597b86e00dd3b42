import { DownOutlined, GlobalOutlined, SettingOutlined } from '@ant-design/icons';
import type { ProjectView } from '@gantry/shared';
import { Button, Card, Checkbox, Dropdown, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { openSite } from '../../../components/OpenSite';
import { formatDateTime } from '../../../utils/dateTime';
import { deviceStats, remainingOf } from '../projectNumbers';
import { backupItems } from './backupItems';
import { CountValue } from './CountValue';

export interface ProjectCardProps {
  project: ProjectView;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onLicence: () => void;
  onEdit: () => void;
  onToggleStatus: () => void;
  onDelete: () => void;
}

/** One project in the card grid (console.md §2). */
export function ProjectCard({
  project,
  selected,
  onSelect,
  onLicence,
  onEdit,
  onToggleStatus,
  onDelete,
}: ProjectCardProps) {
  const { t } = useTranslation();
  const id = `project-card-${project.id}`;
  const devices = deviceStats(project._stats_);
  const unlimited = t('grant.unlimited');
  const created = formatDateTime(project.createTime);

  const items = [
    { key: 'edit', label: <span data-testid={`${id}-edit`}>{t('project.edit')}</span> },
    {
      key: 'status',
      label: <span data-testid={`${id}-status`}>{t(project.status ? 'project.disable' : 'project.enable')}</span>,
    },
    ...backupItems(t, id),
    { type: 'divider' as const },
    { key: 'delete', danger: true, label: <span data-testid={`${id}-delete`}>{t('project.delete')}</span> },
  ];
  const onMenu = ({ key }: { key: string }) => {
    if (key === 'edit') onEdit();
    else if (key === 'status') onToggleStatus();
    else if (key === 'delete') onDelete();
  };

  return (
    <Card
      size="small"
      data-testid={id}
      style={{ background: project.bgColor ?? undefined }}
      title={
        <Space size={8} style={{ maxWidth: '100%' }}>
          <Checkbox
            checked={selected}
            onChange={(e) => onSelect(e.target.checked)}
            data-testid={`${id}-select`}
            aria-label={project.name}
          />
          <Tooltip
            title={
              <>
                <div>{project.name}</div>
                <div>{t('project.createdAt', { time: created })}</div>
              </>
            }
          >
            <Typography.Text strong ellipsis style={{ maxWidth: 160 }} data-testid={`${id}-name`}>
              {project.name}
            </Typography.Text>
          </Tooltip>
        </Space>
      }
      extra={
        <Tag color={project.status ? 'green' : 'default'} data-testid={`${id}-state`}>
          {t(project.status ? 'project.enabled' : 'project.disabled')}
        </Tag>
      }
      actions={[
        <Button
          key="admin"
          type="link"
          size="small"
          icon={<SettingOutlined />}
          data-testid={`${id}-admin`}
          onClick={() => openSite(project, 'admin')}
        >
          {t('project.openAdmin')}
        </Button>,
        <Button
          key="front"
          type="link"
          size="small"
          icon={<GlobalOutlined />}
          data-testid={`${id}-front`}
          onClick={() => openSite(project, 'front')}
        >
          {t('project.openFront')}
        </Button>,
        <Dropdown key="more" trigger={['click']} menu={{ items, onClick: onMenu }}>
          <Button type="link" size="small" data-testid={`${id}-more`}>
            {t('project.more')} <DownOutlined />
          </Button>
        </Dropdown>,
      ]}
    >
      <Space orientation="vertical" size={4} style={{ width: '100%' }}>
        <Typography.Text type="secondary" data-testid={`${id}-owner`}>
          {t('project.owner')}：{project.user.name}
        </Typography.Text>
        <Space wrap size={12}>
          <span>
            {t('project.remainingPoints')}：
            <CountValue
              value={remainingOf(project, 'dataGathering.point')}
              testId={`${id}-points`}
              unlimited={unlimited}
            />
          </span>
          <span>
            {t('project.remainingUsers')}：
            <CountValue value={remainingOf(project, 'userCount')} testId={`${id}-users`} unlimited={unlimited} />
          </span>
          <Button type="link" size="small" style={{ padding: 0 }} data-testid={`${id}-licence`} onClick={onLicence}>
            {t('project.licenceDetail')}
          </Button>
        </Space>
        <span data-testid={`${id}-devices`}>
          {t('project.devices', { total: devices.total, online: devices.online })}
        </span>
      </Space>
    </Card>
  );
}
