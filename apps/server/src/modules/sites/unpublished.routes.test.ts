import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { UNPUBLISHED_CSS } from './unpublished.routes.js';

/** A project's sites answer a page in the console's style, not JSON, until they exist (issue 10). */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('unpublished project sites', () => {
  it.each([
    ['/_p_plant1/', 'plant1', '前台站点'],
    ['/_p_plant1', 'plant1', '前台站点'],
    ['/_p_plant1/some/page?x=1', 'plant1', '前台站点'],
    ['/admin/_p_plant1/', 'plant1', '后台站点'],
    ['/admin/_p_plant1/deep/path', 'plant1', '后台站点'],
  ])('%s: 404, an HTML page saying the site is not published (Chinese by default)', async (url, id, site) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain('<title>站点尚未发布</title>');
    expect(response.body).toContain(`项目“<strong>${id}</strong>”的${site}尚未发布。`);
    expect(response.body).toContain('href="/portal/"');
  });

  it('answers in English when the browser asks for it', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/admin/_p_plant1/',
      headers: { 'accept-language': 'en-GB,en;q=0.9,zh;q=0.5' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-language']).toBe('en');
    expect(response.body).toContain('<title>This site is not published yet</title>');
    expect(response.body).toContain('The back office of project “<strong>plant1</strong>” has not been published.');
  });

  it('works under a strict CSP: no inline script or style, its style sheet served as a file', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/_p_plant1/' });
    expect(response.body).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    expect(response.body).toContain(`<link rel="stylesheet" href="${UNPUBLISHED_CSS}">`);
    const css = await t.app.inject({ method: 'GET', url: UNPUBLISHED_CSS });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toContain('#1677ff');
  });

  it('escapes the project id it repeats', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/_p_${encodeURIComponent('<img src=x onerror=alert(1)>')}/`,
    });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('<img');
    expect(response.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('other unknown addresses still answer the JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/portal/rest/spm/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
  });
});
