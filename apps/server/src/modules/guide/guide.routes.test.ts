import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, ENGINE, type TestApp } from '../../test/test-app.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

describe(`the user guide (issue 10; ${ENGINE})`, () => {
  it('serves the guide in both languages as HTML pages, without signing in', async () => {
    const zh = await t.call('GET', '/guide/zh_Hans');
    expect(zh.statusCode).toBe(200);
    expect(zh.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(zh.headers['content-language']).toBe('zh-Hans');
    expect(zh.body).toContain('<html lang="zh-Hans">');
    expect(zh.body).toContain('<h1 id="gantry-用户指南">Gantry 用户指南</h1>');
    expect(zh.body).toContain('<h2 id="注册管理员">注册管理员</h2>');
    // the table of contents links to the headings (the browser decodes the fragment)
    expect(zh.body).toContain(`href="#${encodeURI('注册管理员')}"`);
    expect(zh.body).toContain('<code>GANTRY_LICENCE_PUBLIC_KEYS</code>');

    const en = await t.call('GET', '/guide/en');
    expect(en.statusCode).toBe(200);
    expect(en.headers['content-language']).toBe('en');
    expect(en.body).toContain('<html lang="en">');
    expect(en.body).toContain('<h2 id="registering-the-administrator">Registering the administrator</h2>');
    expect(en.body).toContain('<h3 id="development-evaluation-licence">');
    // each page links to the other language, and to its style sheet (no inline style or script: CSP)
    expect(en.body).toContain('href="/guide/zh_Hans"');
    expect(zh.body).toContain('href="/guide/en"');
    for (const page of [zh.body, en.body]) {
      expect(page).toContain('<link rel="stylesheet" href="/guide/guide.css">');
      expect(page).not.toMatch(/<script|<style| style=/);
    }
    const css = await t.call('GET', '/guide/guide.css');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toContain('.guide{');
  });

  it("/guide/ goes to the language asked for, else the browser's, else the system language", async () => {
    const go = async (url: string, headers: Record<string, string> = {}) => {
      const reply = await t.app.inject({ method: 'GET', url, headers });
      expect(reply.statusCode).toBe(302);
      return reply.headers.location;
    };
    expect(await go('/guide')).toBe('/guide/');
    expect(await go('/guide/?lang=en')).toBe('/guide/en');
    expect(await go('/guide/?lang=zh_Hans', { 'accept-language': 'en-US,en;q=0.9' })).toBe('/guide/zh_Hans');
    expect(await go('/guide/', { 'accept-language': 'en-GB,en;q=0.9' })).toBe('/guide/en');
    expect(await go('/guide/', { 'accept-language': 'de-DE,zh-CN;q=0.8,en;q=0.5' })).toBe('/guide/zh_Hans');
    expect(await go('/guide/?lang=fr')).toBe('/guide/zh_Hans');

    await t.registerAdmin();
    const saved = await t.call('PATCH', '/portal/rest/spm/setting', await t.login(), { language: 'en' });
    expect(saved.statusCode).toBe(200);
    expect(await go('/guide/')).toBe('/guide/en');
  });

  it('answers 404 for a language it does not have', async () => {
    expect((await t.call('GET', '/guide/fr')).statusCode).toBe(404);
  });
});
