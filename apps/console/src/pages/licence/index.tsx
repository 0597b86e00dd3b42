import { Alert, Card, Empty, Skeleton, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLicenceInfo } from '../../services/licence';
import { LicenceActions } from './components/LicenceActions';
import { LicenceOverview } from './components/LicenceOverview';
import { MachineCode } from './components/MachineCode';
import { UsageBars } from './components/UsageBars';

/** /app/license (administrator): the installed platform licence, its use, this machine's code. */
export default function LicencePage() {
  const { t } = useTranslation();
  const info = useLicenceInfo();

  if (info.isPending) {
    return (
      <Card title={t('licence.title')}>
        <Skeleton active />
      </Card>
    );
  }
  if (info.isError) {
    return (
      <Card title={t('licence.title')}>
        <Alert type="error" showIcon data-testid="license-error" title={info.error.message} />
      </Card>
    );
  }
  if (info.data === null) {
    return (
      <Card title={t('licence.title')} extra={<LicenceActions />}>
        <Empty data-testid="license-empty" description={t('licence.none')}>
          <Space orientation="vertical" size={8}>
            <Typography.Text type="secondary">{t('licence.noneHelp')}</Typography.Text>
            <MachineCode />
          </Space>
        </Empty>
      </Card>
    );
  }
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card title={t('licence.grant')} extra={<LicenceActions />}>
        <LicenceOverview info={info.data} />
      </Card>
      <Card title={t('licence.usage')}>
        <UsageBars info={info.data} />
      </Card>
    </Space>
  );
}
