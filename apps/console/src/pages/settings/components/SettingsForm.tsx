import type { Settings } from '@gantry/shared';
import { Button, Card, Form, type FormInstance } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../services/feedback';
import { isRequestError, reportError } from '../../../services/request';
import { saveSettings } from '../../../services/settings';
import { type FieldError, mapFieldErrors } from '../../../utils/fieldErrors';
import { buildSettings, formFieldFor, type SettingsFormValues, toFormValues } from '../settingsForm';
import { BasicFields } from './BasicFields';
import { MediaLibraryFields } from './MediaLibraryFields';
import { SecurityFields } from './SecurityFields';
import { SitePortFields } from './SitePortFields';

interface SettingsFormProps {
  settings: Settings;
  onSaved: (saved: Settings) => void;
}

/** Basic settings, saved whole with PUT setting. */
export function SettingsForm({ settings, onSaved }: SettingsFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SettingsFormValues>();
  const [saving, setSaving] = useState(false);

  const showFieldErrors = (fields: Record<string, string>) => {
    const { fieldErrors, other } = mapFieldErrors(fields, formFieldFor);
    // dotted server paths are not typed names: set them through the untyped instance
    (form as FormInstance).setFields(fieldErrors.map((e: FieldError) => ({ name: e.name, errors: e.errors })));
    for (const text of other) toast.error(text);
  };

  const onFinish = async (values: SettingsFormValues) => {
    const built = buildSettings(settings, values);
    if (!built.ok) {
      showFieldErrors(built.fields);
      return;
    }
    setSaving(true);
    try {
      const saved = await saveSettings(built.settings);
      form.setFieldsValue(toFormValues(saved));
      toast.success(t('settings.saved'));
      onSaved(saved);
    } catch (error) {
      if (isRequestError(error) && error.status === 400 && error.fields) showFieldErrors(error.fields);
      else reportError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<SettingsFormValues>
      form={form}
      layout="horizontal"
      labelCol={{ flex: '180px' }}
      labelWrap
      initialValues={toFormValues(settings)}
      onFinish={onFinish}
      onValuesChange={(changed: Partial<SettingsFormValues>) => {
        if (changed.mediaLibrary?.publicDirEnable === false) {
          form.setFieldValue(['mediaLibrary', 'publicDirFeature'], []);
        }
      }}
      data-testid="settings-form"
    >
      <Card title={t('settings.sectionBasic')} style={{ marginBottom: 16 }}>
        <BasicFields />
      </Card>
      <Card title={t('settings.sectionSecurity')} style={{ marginBottom: 16 }}>
        <SecurityFields />
        <SitePortFields />
      </Card>
      <Card title={t('settings.sectionMedia')} style={{ marginBottom: 16 }}>
        <MediaLibraryFields />
      </Card>
      <Button data-testid="settings-save" type="primary" htmlType="submit" loading={saving}>
        {t('common.save')}
      </Button>
    </Form>
  );
}
