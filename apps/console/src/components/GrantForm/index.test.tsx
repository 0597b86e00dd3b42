import { dateOfDay, dayNumber, type Grant, localDate, viewGrant } from '@gantry/shared';
import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { Form } from 'antd';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { UnusedLicence } from '../../services/licence';
import { renderPage, signIn } from '../../test/utils';
import GrantForm from '.';
import { defaultDashboardCount, grantFieldMessage, startDateBounds } from './grantRules';

// the first antd form render and message of a file are slow in happy-dom
configure({ asyncUtilTimeout: 5000 });

const today = localDate(new Date());
const shift = (days: number) => dateOfDay(dayNumber(today) + days);

const PARENT: Grant = {
  validityPeriod: 365,
  startTime: shift(-10),
  userCount: 100,
  flow: { tableCount: 50 },
  dataGathering: { point: 5000 },
  features: ['gis', 'BI'],
};
const POOL: UnusedLicence = {
  parent: viewGrant(PARENT, today),
  parentKind: 'tenant',
  allocated: { userCount: 60, 'dataGathering.point': 1000 },
  available: { userCount: 40, 'flow.tableCount': 50, 'dataGathering.point': 4000 },
  today,
};

function Harness(props: {
  pool: UnusedLicence | undefined;
  initial?: Record<string, unknown>;
  previousStart?: string;
  onFinish?: (values: { grant: Record<string, unknown> }) => void;
}) {
  const [form] = Form.useForm();
  return (
    <Form form={form} initialValues={props.initial} onFinish={props.onFinish}>
      <GrantForm name="grant" pool={props.pool} previousStart={props.previousStart} />
      <button type="submit" data-testid="submit">
        submit
      </button>
    </Form>
  );
}

function type(testId: string, value: string) {
  const input = screen.getByTestId(testId);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

function render(props: Parameters<typeof Harness>[0]) {
  signIn();
  renderPage(<Harness {...props} />);
}

describe('GrantForm', () => {
  it('requires validity, user count and table count, with the shared message', async () => {
    render({ pool: POOL });
    fireEvent.click(screen.getByTestId('submit'));
    expect(await screen.findByText('有效期不能为空')).toBeTruthy();
    expect(screen.getByText('用户数不能为空')).toBeTruthy();
    expect(screen.getByText('表数量不能为空')).toBeTruthy();
  });

  it('puts the shared grantProblems messages on the right fields', async () => {
    const onFinish = vi.fn();
    render({ pool: POOL, onFinish });
    type('grant-validityPeriod', '400');
    type('grant-userCount', '41');
    type('grant-flow-tableCount', '50');
    type('grant-dataGathering-point', '4001');
    fireEvent.click(screen.getByTestId('submit'));
    expect(await screen.findByText('用户数不能大于授权用户数')).toBeTruthy();
    expect(screen.getByText('有效期不能大于授权有效期')).toBeTruthy();
    expect(screen.getByText('数据点数不能大于授权数据点数')).toBeTruthy();
    // within the pool: no message
    expect(screen.queryByText('表数量不能大于授权表数量')).toBeNull();
    expect(onFinish).not.toHaveBeenCalled();
  });

  it('refuses zero, decimals and negatives', async () => {
    render({ pool: POOL });
    type('grant-userCount', '1.5');
    type('grant-flow-tableCount', '0');
    type('grant-validityPeriod', '-3');
    fireEvent.click(screen.getByTestId('submit'));
    await waitFor(() =>
      expect(screen.getAllByText('请输入不小于1的整数（不能为0、小数或负数，且不超过上限）')).toHaveLength(3),
    );
  });

  it('defaults a new grant to today and 30 screens, and submits a valid grant', async () => {
    const onFinish = vi.fn();
    render({ pool: POOL, onFinish });
    expect((screen.getByTestId('grant-visual-dashboardCount') as HTMLInputElement).value).toBe('30');
    type('grant-validityPeriod', '30');
    type('grant-userCount', '40');
    type('grant-flow-tableCount', '10');
    fireEvent.click(screen.getByTestId('grant-feature-gis'));
    fireEvent.click(screen.getByTestId('grant-feature-DST'));
    fireEvent.click(screen.getByTestId('submit'));
    await waitFor(() => expect(onFinish).toHaveBeenCalled());
    const [submitted] = onFinish.mock.calls[0] ?? [];
    const { grant } = submitted as { grant: Record<string, unknown> };
    expect(grant).toMatchObject({
      validityPeriod: 30,
      startTime: today,
      userCount: 40,
      flow: { tableCount: 10 },
      visual: { dashboardCount: 30 },
      features: ['gis', 'DST'],
    });
  });

  it('keeps a stored grant as it is (no defaults) and accepts its unchanged past start', async () => {
    const onFinish = vi.fn();
    const stored = { validityPeriod: 30, startTime: shift(-5), userCount: 10, flow: { tableCount: 5 }, features: [] };
    render({ pool: POOL, onFinish, previousStart: stored.startTime, initial: { grant: stored } });
    expect((screen.getByTestId('grant-visual-dashboardCount') as HTMLInputElement).value).toBe('');
    fireEvent.click(screen.getByTestId('submit'));
    await waitFor(() => expect(onFinish).toHaveBeenCalled());
    expect(screen.queryByText('开始时间不能早于今天')).toBeNull();
  });

  it('shows what is available and disables features the parent lacks (BI counts as DST and DI)', () => {
    render({ pool: POOL });
    expect(screen.getByTestId('grant-userCount-available').textContent).toBe('可用：40');
    expect(screen.getByTestId('grant-dataGathering-point-available').textContent).toBe('可用：4,000');
    expect(screen.getByTestId('grant-eventCount-available').textContent).toBe('可用：不限');
    expect(screen.getByTestId('grant-parent').textContent).toContain('在租户授权范围内分配');
    expect((screen.getByTestId('grant-feature-gis') as HTMLInputElement).disabled).toBe(false);
    expect((screen.getByTestId('grant-feature-DST') as HTMLInputElement).disabled).toBe(false);
    expect((screen.getByTestId('grant-feature-DI') as HTMLInputElement).disabled).toBe(false);
    expect((screen.getByTestId('grant-feature-threeD') as HTMLInputElement).disabled).toBe(true);
  });
});

describe('grant rules', () => {
  const context = { pool: POOL, today };
  const valid = { validityPeriod: 30, startTime: today, userCount: 5, flow: { tableCount: 5 }, features: [] };

  it('reports a start before the parent start and before today', () => {
    const early = { ...valid, startTime: shift(-20) };
    expect(grantFieldMessage(early, 'startTime', context, 'zh_Hans')).toBe('开始时间不能早于今天');
    expect(grantFieldMessage(early, 'startTime', context, 'en')).toBe('Start time cannot be before today');
  });

  it('reports an end after the parent end', () => {
    const late = { ...valid, startTime: shift(300), validityPeriod: 100 };
    expect(grantFieldMessage(late, 'validityPeriod', context, 'zh_Hans')).toBe('结束时间不能大于授权结束时间');
  });

  it('offers start dates from today to the last day of the parent', () => {
    expect(startDateBounds(POOL, today)).toEqual({ min: today, max: shift(354) });
    expect(startDateBounds(undefined, today)).toEqual({ min: today });
  });

  it('checks nothing against a missing parent but the grant itself', () => {
    const none = { ...context, pool: { ...POOL, parent: null } };
    expect(grantFieldMessage({ ...valid, userCount: 10_000 }, 'userCount', none, 'zh_Hans')).toBeNull();
  });
});

describe('the default screen count against the parent (issue 10)', () => {
  const limited = (available: number): UnusedLicence => ({
    ...POOL,
    parent: viewGrant({ ...PARENT, visual: { dashboardCount: 40 } }, today),
    available: { ...POOL.available, 'visual.dashboardCount': available },
  });

  it('is 30 without a pool, with a parent that does not limit screens, and when 30 are left', () => {
    expect(defaultDashboardCount(undefined)).toBe(30);
    expect(defaultDashboardCount(POOL)).toBe(30);
    expect(defaultDashboardCount(limited(30))).toBe(30);
    expect(defaultDashboardCount(limited(400))).toBe(30);
  });

  it('never exceeds what the parent has left, and is empty when nothing is left', () => {
    expect(defaultDashboardCount(limited(7))).toBe(7);
    expect(defaultDashboardCount(limited(1))).toBe(1);
    expect(defaultDashboardCount(limited(0))).toBeUndefined();
    expect(defaultDashboardCount(limited(-3))).toBeUndefined();
  });

  /** The form with a first pool, then (button) a second one: another owner chosen, or a fresh answer. */
  function Switching({ first, second }: { first: UnusedLicence; second: UnusedLicence }) {
    const [pool, setPool] = useState(first);
    return (
      <>
        <Harness pool={pool} />
        <button type="button" data-testid="next-pool" onClick={() => setPool(second)}>
          next
        </button>
      </>
    );
  }
  const screensValue = () => (screen.getByTestId('grant-visual-dashboardCount') as HTMLInputElement).value;

  it('prefills the capped value in the form, and follows a pool that changes', async () => {
    signIn();
    renderPage(<Switching first={limited(7)} second={limited(0)} />);
    await waitFor(() => expect(screensValue()).toBe('7'));
    fireEvent.click(screen.getByTestId('next-pool'));
    await waitFor(() => expect(screensValue()).toBe(''));
  });

  it('keeps what the user typed when the pool changes', async () => {
    signIn();
    renderPage(<Switching first={limited(7)} second={limited(2)} />);
    await waitFor(() => expect(screensValue()).toBe('7'));
    type('grant-visual-dashboardCount', '5');
    fireEvent.click(screen.getByTestId('next-pool'));
    await waitFor(() => expect(screen.getByTestId('grant-visual-dashboardCount-available').textContent).toContain('2'));
    expect(screensValue()).toBe('5');
  });
});
