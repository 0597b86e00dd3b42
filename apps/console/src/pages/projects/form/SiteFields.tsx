import { isValidDomain, PORT_MAX, PORT_MIN } from '@gantry/shared';
import { Form, Input, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { CertificateUpload } from './CertificateUpload';
import { type CertificatePair, certificatesComplete } from './certificates';

/** Domain, use-domain, HTTPS with its certificates, port (console.md §5). */
export function SiteFields() {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const https = Form.useWatch('isUseHttps', form) === true;
  return (
    <>
      <Form.Item
        name="domain"
        label={t('project.domain')}
        rules={[
          {
            validator: async (_rule, value: string | null | undefined) => {
              const domain = value?.trim();
              if (domain && !isValidDomain(domain)) throw new Error(t('project.domainFormat'));
            },
          },
        ]}
      >
        <Input data-testid="project-domain" placeholder="www.example.com" maxLength={255} />
      </Form.Item>
      <Form.Item name="isUseDomain" label={t('project.isUseDomain')} valuePropName="checked">
        <Switch data-testid="project-isUseDomain" />
      </Form.Item>
      <Form.Item name="isUseHttps" label={t('project.isUseHttps')} valuePropName="checked">
        <Switch data-testid="project-isUseHttps" />
      </Form.Item>
      {https ? (
        <Form.Item
          name="certificates"
          label={t('project.certificates')}
          required
          rules={[
            {
              validator: async (_rule, value: CertificatePair | undefined) => {
                if (!certificatesComplete(value)) throw new Error(t('project.certificatesRequired'));
              },
            },
          ]}
        >
          <CertificateUpload />
        </Form.Item>
      ) : null}
      <Form.Item
        name="port"
        label={t('project.port')}
        rules={[
          {
            validator: async (_rule, value: number | null | undefined) => {
              if (value === null || value === undefined) return;
              if (!Number.isInteger(value) || value < PORT_MIN || value > PORT_MAX)
                throw new Error(t('project.portRange'));
            },
          },
        ]}
      >
        <InputNumber<number>
          data-testid="project-port"
          step={1}
          style={{ width: 200 }}
          placeholder={`${PORT_MIN}-${PORT_MAX}`}
        />
      </Form.Item>
    </>
  );
}
