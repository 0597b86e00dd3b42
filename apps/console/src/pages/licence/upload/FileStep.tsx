import { InboxOutlined } from '@ant-design/icons';
import { LICENCE_FILE_MAX_BYTES } from '@gantry/shared';
import { Alert, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Accepted names of licence files (the vendor's .lic, or the same JSON as .json). */
export const LICENCE_FILE_ACCEPT = '.lic,.json';

/** Choose the licence file: kept in the page, never uploaded from here. */
export function FileStep({ file, onChoose }: { file: File | null; onChoose: (file: File | null) => void }) {
  const { t } = useTranslation();
  const [tooLarge, setTooLarge] = useState(false);
  return (
    <div data-testid="license-wizard-step-file">
      <div data-testid="license-wizard-dragger">
        <Upload.Dragger
          data-testid="license-wizard-file-input"
          accept={LICENCE_FILE_ACCEPT}
          multiple={false}
          showUploadList={false}
          beforeUpload={(chosen) => {
            const large = chosen.size > LICENCE_FILE_MAX_BYTES;
            setTooLarge(large);
            onChoose(large ? null : chosen);
            return false;
          }}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('licence.wizard.drop')}</p>
          <p className="ant-upload-hint">{t('licence.wizard.dropHint')}</p>
        </Upload.Dragger>
      </div>
      {file ? (
        <Typography.Paragraph style={{ marginTop: 12 }} data-testid="license-wizard-file-name">
          {t('licence.wizard.chosen', { name: file.name })}
        </Typography.Paragraph>
      ) : null}
      {tooLarge ? (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 12 }}
          data-testid="license-wizard-too-large"
          title={t('licence.tooLarge')}
        />
      ) : null}
    </div>
  );
}
