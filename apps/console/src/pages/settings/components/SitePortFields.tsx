import { PORT_MAX, PORT_MIN } from '@gantry/shared';
import { Form, InputNumber, Space } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The ports project sites may be given (settings `sitePorts`), within PORT_MIN–PORT_MAX, lowest
 * first (checked by the shared schema on save, and again by the server).
 */
export function SitePortFields() {
  const { t } = useTranslation();
  const port = { min: PORT_MIN, max: PORT_MAX, precision: 0, style: { width: 140 } };
  return (
    <Form.Item label={t('settings.sitePorts')} extra={t('settings.sitePortsHelp')} required>
      <Space align="start" wrap>
        <Form.Item name={['sitePorts', 'min']} noStyle>
          <InputNumber<number> data-testid="settings-site-port-min" aria-label={t('settings.sitePortMin')} {...port} />
        </Form.Item>
        <span aria-hidden>–</span>
        <Form.Item name={['sitePorts', 'max']} noStyle>
          <InputNumber<number> data-testid="settings-site-port-max" aria-label={t('settings.sitePortMax')} {...port} />
        </Form.Item>
      </Space>
    </Form.Item>
  );
}
