import { PUBLIC_DIR_FEATURES } from '@gantry/shared';
import { Checkbox, Form, Switch } from 'antd';
import { useTranslation } from 'react-i18next';

/** Public media-library folder; its permissions show only while it is on (cleared by the form when turned off). */
export function MediaLibraryFields() {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const enabled = Form.useWatch(['mediaLibrary', 'publicDirEnable'], form) === true;
  return (
    <>
      <Form.Item
        name={['mediaLibrary', 'publicDirEnable']}
        label={t('settings.publicDir')}
        extra={t('settings.publicDirHelp')}
        valuePropName="checked"
      >
        <Switch data-testid="settings-public-dir" />
      </Form.Item>
      {enabled ? (
        <Form.Item name={['mediaLibrary', 'publicDirFeature']} label={t('settings.publicDirFeature')}>
          <Checkbox.Group
            data-testid="settings-public-dir-feature"
            options={PUBLIC_DIR_FEATURES.map((f) => ({ value: f, label: t(`settings.feature.${f}`) }))}
          />
        </Form.Item>
      ) : null}
    </>
  );
}
