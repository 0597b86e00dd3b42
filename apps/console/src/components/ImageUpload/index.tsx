import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { IMAGE_UPLOAD_MAX_BYTES } from '@gantry/shared';
import { Button, Space, Upload, type UploadProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../services/feedback';
import { uploadImage } from '../../services/resource';

/** The image types the server accepts (upload.notImage names them). */
export const IMAGE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
];

interface ImageUploadProps {
  value?: string;
  onChange?: (url: string) => void;
  testId?: string;
}

/** Checks the file on the client: an image of an accepted type, at most IMAGE_UPLOAD_MAX_BYTES. */
export function checkImageFile(file: { type: string; size: number }): 'upload.notImage' | 'upload.tooLarge' | null {
  if (!IMAGE_TYPES.includes(file.type)) return 'upload.notImage';
  if (file.size > IMAGE_UPLOAD_MAX_BYTES) return 'upload.tooLarge';
  return null;
}

/** One image setting: preview of the current url, upload (POST resource/img) and remove. */
export function ImageUpload({ value, onChange, testId }: ImageUploadProps) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    const problem = checkImageFile(file);
    if (problem === 'upload.notImage') toast.hint(t('upload.notImage'));
    if (problem === 'upload.tooLarge') toast.hint(t('upload.tooLarge', { size: IMAGE_UPLOAD_MAX_BYTES / 1024 / 1024 }));
    return problem ? Upload.LIST_IGNORE : true;
  };

  const customRequest: UploadProps['customRequest'] = ({ file, onSuccess, onError }) => {
    if (typeof file === 'string') return;
    setUploading(true);
    uploadImage(file)
      .then((result) => {
        onChange?.(result.url);
        onSuccess?.(result);
      })
      .catch((error: unknown) => onError?.(error instanceof Error ? error : new Error(String(error))))
      .finally(() => setUploading(false));
  };

  return (
    <Space align="center" data-testid={testId}>
      <div
        style={{
          width: 120,
          height: 72,
          border: '1px dashed #d9d9d9',
          borderRadius: 6,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          background: '#fafafa',
          overflow: 'hidden',
        }}
      >
        {value ? (
          <img src={value} alt="" style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} />
        ) : null}
      </div>
      <Upload
        accept={IMAGE_TYPES.join(',')}
        showUploadList={false}
        maxCount={1}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
      >
        <Button icon={<UploadOutlined />} loading={uploading}>
          {t('upload.button')}
        </Button>
      </Upload>
      {value ? (
        <Button icon={<DeleteOutlined />} danger onClick={() => onChange?.('')}>
          {t('upload.remove')}
        </Button>
      ) : null}
    </Space>
  );
}
