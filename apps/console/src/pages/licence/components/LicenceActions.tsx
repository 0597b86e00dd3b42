import { AppstoreOutlined, FormOutlined, HistoryOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PATHS } from '../../../app/paths';
import { useHasRight } from '../../../services/auth';
import { ApplicationModal } from './ApplicationModal';

/** Upload licence, value-added services, licence history (with log.view) and the licence application. */
export function LicenceActions({ withHistory = true }: { withHistory?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mayViewHistory = useHasRight('log.view') === true;
  const [applying, setApplying] = useState(false);
  return (
    <Space wrap>
      <Button
        type="primary"
        icon={<UploadOutlined />}
        data-testid="license-upload"
        onClick={() => void navigate(PATHS.licenceUpload)}
      >
        {t('licence.upload')}
      </Button>
      <Button icon={<FormOutlined />} data-testid="license-apply" onClick={() => setApplying(true)}>
        {t('licence.apply')}
      </Button>
      <Button
        icon={<AppstoreOutlined />}
        data-testid="license-services"
        onClick={() => void navigate(PATHS.licenceServices)}
      >
        {t('licence.services')}
      </Button>
      {withHistory && mayViewHistory ? (
        <Button
          icon={<HistoryOutlined />}
          data-testid="license-history"
          onClick={() => void navigate(PATHS.licenceHistory)}
        >
          {t('licence.history')}
        </Button>
      ) : null}
      <ApplicationModal open={applying} onClose={() => setApplying(false)} />
    </Space>
  );
}
