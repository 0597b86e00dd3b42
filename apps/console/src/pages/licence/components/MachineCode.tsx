import { Skeleton, Typography } from 'antd';
import { useMachine } from '../../../services/licenceFile';

/** This machine's code (GET license/machine), copyable: what the vendor needs to issue a licence. */
export function MachineCode({ testId = 'license-machine-code' }: { testId?: string }) {
  const machine = useMachine();
  if (machine.isPending) return <Skeleton.Input active size="small" style={{ width: 320 }} />;
  const code = machine.data?.machineCode;
  if (!code) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Typography.Text code copyable={{ text: code }} data-testid={testId} data-code={code} style={{ fontSize: 15 }}>
      {code}
    </Typography.Text>
  );
}
