import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { TEMPLATE_IMAGE_LIMITS, TEMPLATE_LIMITS } from '@gantry/shared';
import { Button, Space, Upload, type UploadProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../services/feedback';
import { uploadTemplateImage } from '../../services/templates';

const TYPES: readonly string[] = TEMPLATE_IMAGE_LIMITS.types;

/** The client's own check before sending (the server checks the content again). */
export function templateImageProblem(file: { type: string; size: number }): 'type' | 'size' | null {
  if (!TYPES.includes(file.type)) return 'type';
  if (file.size > TEMPLATE_IMAGE_LIMITS.bytes) return 'size';
  return null;
}

interface Props {
  /** URLs of uploaded images. */
  value?: string[];
  onChange?: (urls: string[]) => void;
  /** At most this many (the cover: one). */
  max?: number;
  testId: string;
}

/**
 * Uploaded template images as thumbnails with a remove button, and an upload button while there is
 * room: each file goes to `POST templates/images` at once; the field's value is their URLs.
 */
export function TemplateImagesField({ value = [], onChange, max = TEMPLATE_LIMITS.imagesMax, testId }: Props) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    const problem = templateImageProblem(file);
    if (problem === 'type') toast.hint(t('templates.imageType'));
    if (problem === 'size') toast.hint(t('templates.imageTooLarge', { mb: TEMPLATE_IMAGE_LIMITS.bytes / 1024 / 1024 }));
    return problem ? Upload.LIST_IGNORE : true;
  };

  const customRequest: UploadProps['customRequest'] = ({ file, onSuccess, onError }) => {
    if (typeof file === 'string') return;
    setUploading(true);
    uploadTemplateImage(file)
      .then((result) => {
        onChange?.([...value, result.url].slice(0, max));
        onSuccess?.(result);
      })
      .catch((error: unknown) => onError?.(error instanceof Error ? error : new Error(String(error))))
      .finally(() => setUploading(false));
  };

  return (
    <Space wrap data-testid={testId}>
      {value.map((url, index) => (
        <div key={url} style={{ position: 'relative', width: 128, height: 72 }}>
          <img
            src={url}
            alt=""
            data-testid={`${testId}-image`}
            style={{ width: '100%', height: '100%', objectFit: 'cover', borderRadius: 6, border: '1px solid #d9d9d9' }}
          />
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('templates.imageRemove')}
            style={{ position: 'absolute', top: 4, right: 4 }}
            onClick={() => onChange?.(value.filter((_, i) => i !== index))}
          />
        </div>
      ))}
      {value.length < max ? (
        <Upload
          accept={TYPES.join(',')}
          showUploadList={false}
          beforeUpload={beforeUpload}
          customRequest={customRequest}
          multiple={max > 1}
        >
          <Button icon={<PlusOutlined />} loading={uploading} data-testid={`${testId}-upload`}>
            {t('templates.imageUpload')}
          </Button>
        </Upload>
      ) : null}
    </Space>
  );
}
