import { FEATURE_KEYS } from '@gantry/shared';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import i18n from '../../../i18n';
import { mockFetch, renderPage, signIn } from '../../../test/utils';
import { currentUser } from '../testFixtures';
import ServicesPage, { SERVICES_MIN_WIDTH } from '.';
import { FeatureSections } from './FeatureSections';

function renderServices(features: string[]) {
  mockFetch((call) =>
    call.url === '/portal/rest/spm/login/current/user' ? { body: currentUser({ features }) } : undefined,
  );
  signIn();
  renderPage(<ServicesPage />, { path: '/app/license/services' });
}

const card = (key: string) => screen.getByTestId(`feature-card-${key}`);

describe('value-added services', () => {
  it('marks each feature available or not from the current user features', async () => {
    renderServices(['gis', 'DST', 'Oauth']);
    await screen.findByTestId('feature-card-gis');
    expect(card('gis').getAttribute('data-available')).toBe('true');
    expect(within(card('gis')).getByTestId('feature-card-gis-badge').textContent).toBe('可用');
    expect(card('video').getAttribute('data-available')).toBe('false');
    expect(within(card('video')).getByTestId('feature-card-video-badge').textContent).toBe('不可用');
    expect(card('Oauth').textContent).toContain('OAuth登录');
    expect(within(card('kafka')).getByTestId('feature-card-kafka-badge').textContent).toBe('不可用');
    const available = FEATURE_KEYS.filter((key) => card(key).getAttribute('data-available') === 'true');
    expect(available.sort()).toEqual(['DST', 'Oauth', 'gis']);

    const titles = ['可视化引擎', '数据分析引擎', '流程引擎', '二次开发引擎', '高级功能'];
    for (const title of titles) expect(screen.getByText(title)).toBeTruthy();
    expect(screen.getByTestId('license-services-page').style.minWidth).toBe(`${SERVICES_MIN_WIDTH}px`);
  });

  it('says Available / Unavailable in English', async () => {
    await act(() => i18n.changeLanguage('en'));
    renderServices(['video']);
    await screen.findByTestId('feature-card-video');
    expect(within(card('video')).getByTestId('feature-card-video-badge').textContent).toBe('Available');
    expect(within(card('gis')).getByTestId('feature-card-gis-badge').textContent).toBe('Unavailable');
    expect(screen.getByText('Visualization Engine')).toBeTruthy();
  });

  it('lays the cards out in three columns from lg and one below', async () => {
    renderServices([]);
    await screen.findByTestId('feature-card-gis');
    const column = screen.getByTestId('feature-col-gis');
    expect(column.classList.contains('ant-col-xs-24')).toBe(true);
    expect(column.classList.contains('ant-col-lg-8')).toBe(true);
  });

  it('shows a feature help in a tooltip', async () => {
    renderServices([]);
    fireEvent.mouseEnter(await screen.findByTestId('feature-card-Oauth-help'));
    expect(await screen.findByText('项目免密登录（单点登录）')).toBeTruthy();
  });

  it('hides sections with no items of the catalogue', () => {
    renderPage(<FeatureSections features={['kafka']} catalogue={['gis', 'kafka']} />);
    expect(screen.getByTestId('feature-section-visualization')).toBeTruthy();
    expect(screen.getByTestId('feature-section-advanced')).toBeTruthy();
    for (const key of ['dataAnalysis', 'flow', 'secondaryDevelopment']) {
      expect(screen.queryByTestId(`feature-section-${key}`)).toBeNull();
    }
    expect(screen.queryByTestId('feature-card-threeD')).toBeNull();
    expect(card('kafka').getAttribute('data-available')).toBe('true');
    expect(card('gis').getAttribute('data-available')).toBe('false');
  });
});
