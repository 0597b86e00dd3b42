import { FEATURE_FOR, PUBLIC_DIR_PERMISSIONS, REMARKS_MAX } from '@gantry/shared';
import { Checkbox, ColorPicker, Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { ImageUpload } from '../../../components/ImageUpload';
import { useCurrentUser } from '../../../services/auth';

function ColorField({ value, onChange }: { value?: string | null; onChange?: (value: string | null) => void }) {
  return (
    <ColorPicker
      data-testid="project-bgColor"
      value={value || undefined}
      allowClear
      showText
      onChange={(color) => onChange?.(color.cleared ? null : color.toHexString())}
      onClear={() => onChange?.(null)}
    />
  );
}

/**
 * Single sign-on needs the licensed feature 'Oauth' (FEATURE_FOR.projectSso) among the current
 * user's usable features: without it the switch cannot be turned on (one already on may be turned off).
 */
function SsoField() {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const { data: current } = useCurrentUser();
  const allowed = current === undefined || current.features.includes(FEATURE_FOR.projectSso);
  const on = Form.useWatch('hasSSO', form) === true;
  return (
    <Form.Item
      name="hasSSO"
      label={t('project.hasSSO')}
      extra={allowed ? t('project.hasSSOHelp') : t('licence.ssoNeedsFeature')}
      valuePropName="checked"
    >
      <Switch
        data-testid="project-hasSSO"
        data-blocked={allowed ? undefined : FEATURE_FOR.projectSso}
        disabled={!allowed && !on}
      />
    </Form.Item>
  );
}

/** SSO (edit only), remarks, card colour, logo and the media library's public folder. */
export function MoreFields({ isAdd }: { isAdd: boolean }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const publicDir = Form.useWatch(['advanced', 'mediaLibraryPublicDirEnable'], form) === true;
  return (
    <>
      {isAdd ? null : <SsoField />}
      <Form.Item name="remarks" label={t('project.remarks')}>
        <Input.TextArea data-testid="project-remarks" rows={3} maxLength={REMARKS_MAX} showCount />
      </Form.Item>
      <Form.Item name="bgColor" label={t('project.bgColor')}>
        <ColorField />
      </Form.Item>
      <Form.Item name="logo" label={t('project.logo')}>
        <ImageUpload testId="project-logo" />
      </Form.Item>
      <Form.Item
        name={['advanced', 'mediaLibraryPublicDirEnable']}
        label={t('project.publicDir')}
        extra={t('project.publicDirHelp')}
        valuePropName="checked"
      >
        <Switch data-testid="project-publicDir" />
      </Form.Item>
      {publicDir ? (
        <Form.Item name={['advanced', 'mediaLibraryPublicDirFeature']} label={t('project.publicDirFeature')}>
          <Checkbox.Group data-testid="project-publicDir-feature">
            {PUBLIC_DIR_PERMISSIONS.map((p) => (
              <Checkbox key={p} value={p} data-testid={`project-publicDir-${p}`}>
                {t(`settings.feature.${p}`)}
              </Checkbox>
            ))}
          </Checkbox.Group>
        </Form.Item>
      ) : null}
    </>
  );
}
