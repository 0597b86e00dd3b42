import { DeleteOutlined, SafetyCertificateOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Space, Typography, Upload, type UploadProps } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../services/feedback';
import { addCertificate, type CertificatePair } from './certificates';

interface CertificateUploadProps {
  value?: CertificatePair;
  onChange?: (value: CertificatePair) => void;
}

/**
 * The HTTPS certificate pair: one .key and one .pem (console.md §5). Files are kept here and sent
 * with POST project/cert once the project is saved; a rejected file gives the shared message.
 */
export function CertificateUpload({ value, onChange }: CertificateUploadProps) {
  const { t } = useTranslation();
  // several files chosen at once arrive one by one before the form value updates
  const latest = useRef<CertificatePair>(value ?? {});
  useEffect(() => {
    latest.current = value ?? {};
  }, [value]);

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    const next = addCertificate(latest.current, { name: file.name, file });
    if (!next) {
      toast.hint(t('project.certificateFiles'));
      return Upload.LIST_IGNORE;
    }
    latest.current = next;
    onChange?.(next);
    return Upload.LIST_IGNORE;
  };

  const remove = (kind: 'key' | 'pem') => {
    const next = { ...latest.current, [kind]: undefined };
    latest.current = next;
    onChange?.(next);
  };

  return (
    <Space orientation="vertical" size={4} data-testid="project-cert">
      <Upload accept=".key,.pem" multiple showUploadList={false} beforeUpload={beforeUpload}>
        <Button icon={<UploadOutlined />} data-testid="project-cert-upload">
          {t('project.certUpload')}
        </Button>
      </Upload>
      {(['key', 'pem'] as const).map((kind) => {
        const file = value?.[kind];
        return (
          <Space key={kind} size={4} data-testid={`project-cert-${kind}`}>
            <SafetyCertificateOutlined />
            <Typography.Text type={file ? undefined : 'secondary'}>
              {file ? file.name : t(kind === 'key' ? 'project.certKeyMissing' : 'project.certPemMissing')}
            </Typography.Text>
            {file ? (
              <Button
                type="text"
                size="small"
                icon={<DeleteOutlined />}
                aria-label={t('upload.remove')}
                data-testid={`project-cert-${kind}-remove`}
                onClick={() => remove(kind)}
              />
            ) : null}
          </Space>
        );
      })}
    </Space>
  );
}
