import { FEATURE_KEYS, MEASURES } from '@gantry/shared';
import { Button, Checkbox, Col, Form, Input, InputNumber, Modal, Result, Row } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../../i18n';
import { useMachine } from '../../../services/licenceFile';
import { saveFile } from '../../../utils/saveFile';
import { type ApplicationValues, licenceRequest, PHONE_PATTERN, requestFileName } from '../applicationRequest';
import { MachineCode } from './MachineCode';

/**
 * The licence application: the form downloads a request file (machine code + the answers) to send
 * to sales, then shows the promise that sales will call back within 24 hours.
 */
export function ApplicationModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ApplicationValues>();
  const machine = useMachine();
  const [sent, setSent] = useState<string | null>(null);
  const required = (label: string) => ({
    required: true,
    whitespace: true,
    message: t('licence.apply.required', { label }),
  });

  const submit = (values: ApplicationValues) => {
    const code = machine.data?.machineCode ?? '';
    const file = requestFileName(code);
    const body = JSON.stringify(licenceRequest(code, values), null, 2);
    saveFile(new Blob([body], { type: 'application/json' }), file);
    setSent(file);
  };
  const close = () => {
    setSent(null);
    form.resetFields();
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('licence.apply.title')}
      width={760}
      onCancel={close}
      footer={null}
      destroyOnHidden
      data-testid="license-apply-modal"
    >
      {sent ? (
        <Result
          status="success"
          data-testid="license-apply-done"
          title={t('licence.apply.done')}
          subTitle={t('licence.apply.promise', { file: sent })}
          extra={<Button onClick={close}>{t('licence.apply.close')}</Button>}
        />
      ) : (
        <Form form={form} layout="vertical" onFinish={submit} data-testid="license-apply-form">
          <p>{t('licence.apply.intro')}</p>
          <Form.Item label={t('licence.machineCode')}>
            <MachineCode testId="license-apply-machine-code" />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item
                name="company"
                label={t('licence.apply.company')}
                rules={[required(t('licence.apply.company'))]}
              >
                <Input data-testid="license-apply-company" maxLength={200} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="contact"
                label={t('licence.apply.contact')}
                rules={[required(t('licence.apply.contact'))]}
              >
                <Input data-testid="license-apply-contact" maxLength={100} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="phone"
                label={t('licence.apply.phone')}
                rules={[
                  required(t('licence.apply.phone')),
                  { pattern: PHONE_PATTERN, message: t('licence.apply.phoneError') },
                ]}
              >
                <Input data-testid="license-apply-phone" maxLength={20} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="email"
                label={t('licence.apply.email')}
                rules={[required(t('licence.apply.email')), { type: 'email', message: t('licence.apply.emailError') }]}
              >
                <Input data-testid="license-apply-email" maxLength={200} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item label={t('licence.apply.measures')} style={{ marginBottom: 0 }}>
            <Row gutter={16}>
              {MEASURES.map(({ path, max }) => (
                <Col xs={24} md={8} key={path}>
                  <Form.Item name={['measures', path]} label={translateMessage(`grant.label.${path}`)}>
                    <InputNumber
                      data-testid={`license-apply-measure-${path}`}
                      min={1}
                      max={max}
                      precision={0}
                      style={{ width: '100%' }}
                    />
                  </Form.Item>
                </Col>
              ))}
            </Row>
          </Form.Item>
          <Form.Item name="features" label={t('licence.apply.features')}>
            <Checkbox.Group data-testid="license-apply-features">
              <Row>
                {FEATURE_KEYS.map((key) => (
                  <Col xs={12} md={8} key={key}>
                    <Checkbox value={key} data-testid={`license-apply-feature-${key}`}>
                      {translateMessage(`grant.feature.${key}`)}
                    </Checkbox>
                  </Col>
                ))}
              </Row>
            </Checkbox.Group>
          </Form.Item>
          <Form.Item name="remarks" label={t('licence.apply.remarks')}>
            <Input.TextArea data-testid="license-apply-remarks" rows={3} maxLength={1000} showCount />
          </Form.Item>
          <Button type="primary" htmlType="submit" data-testid="license-apply-submit" disabled={!machine.data}>
            {t('licence.apply.submit')}
          </Button>
        </Form>
      )}
    </Modal>
  );
}
