import { passwordStrength, STRENGTH_PERCENT, type StrengthTier } from '@gantry/shared';
import { Progress } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<StrengthTier, string> = {
  weak: '#ff4d4f',
  medium: '#faad14',
  strong: '#52c41a',
  best: '#1677ff',
};

/** Strength meter (console.md §4): weak 25 %, medium 50 %, strong 75 %, best 100 %. Hidden while empty. */
export function PasswordStrength({ password }: { password: string | undefined }) {
  const { t } = useTranslation();
  if (!password) return null;
  const tier = passwordStrength(password);
  const percent = STRENGTH_PERCENT[tier];
  return (
    <div
      data-testid="strength-meter"
      data-tier={tier}
      data-percent={percent}
      style={{ marginTop: -16, marginBottom: 16 }}
    >
      <Progress percent={percent} showInfo={false} strokeColor={COLORS[tier]} size="small" />
      <span style={{ fontSize: 12, color: COLORS[tier] }}>
        {t('strength.label')}: {t(`strength.${tier}`)}
      </span>
    </div>
  );
}
