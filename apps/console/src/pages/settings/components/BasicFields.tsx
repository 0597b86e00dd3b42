import { COPYRIGHT_MAX, DEFAULT_HELP_URL, IMAGE_URL_MAX, LANGUAGES, SYSTEM_NAME_MAX } from '@gantry/shared';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { ImageUpload } from '../../../components/ImageUpload';

const IMAGE_FIELDS = ['logo', 'backgroundImage', 'project_logo', 'project_backgroundImage'] as const;

/** System name, copyright, language, where Help opens and the four images. */
export function BasicFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="name"
        label={t('settings.name')}
        rules={[
          { required: true, whitespace: true, message: t('settings.nameRequired') },
          { max: SYSTEM_NAME_MAX, message: t('settings.nameTooLong') },
        ]}
      >
        <Input data-testid="settings-name" maxLength={SYSTEM_NAME_MAX} />
      </Form.Item>
      <Form.Item name="copyright" label={t('settings.copyright')}>
        <Input data-testid="settings-copyright" maxLength={COPYRIGHT_MAX} />
      </Form.Item>
      <Form.Item name="language" label={t('settings.language')}>
        <Select
          data-testid="settings-language"
          style={{ maxWidth: 240 }}
          options={LANGUAGES.map((lng) => ({ value: lng, label: t(`language.${lng}`) }))}
        />
      </Form.Item>
      <Form.Item name="helpUrl" label={t('settings.helpUrlLabel')} extra={t('settings.helpUrlExtra')}>
        <Input data-testid="settings-helpUrl" placeholder={DEFAULT_HELP_URL} maxLength={IMAGE_URL_MAX} />
      </Form.Item>
      {IMAGE_FIELDS.map((field) => (
        <Form.Item key={field} name={field} label={t(`settings.${field}`)}>
          <ImageUpload testId={`settings-${field}`} />
        </Form.Item>
      ))}
    </>
  );
}
