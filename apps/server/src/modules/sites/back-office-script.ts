import { BACK_OFFICE_TEXTS } from './back-office-texts.js';

/**
 * The back office's script (served as `/_site/back-office.js`, a module: no inline script, so the
 * page works under a strict CSP). Plain DOM, no framework: sign-in (with the verification code when
 * asked, and the single sign-on code from `#sso=`), the project's name and grant, the media library,
 * the records of published tables, and for the project administrator its users and roles. Passwords leave hashed (SHA-256 hex, the
 * contract's wire form), computed here so that it works on plain-HTTP addresses too.
 */
export const BACK_OFFICE_SCRIPT = String.raw`
const root = document.getElementById('app');
const base = root.dataset.base;
const projectId = root.dataset.project;
const lang = root.dataset.lang === 'en' ? 'en' : 'zh_Hans';
const KEY = 'gantry.project.' + projectId + '.user';
const T = ${JSON.stringify(BACK_OFFICE_TEXTS)}[lang];

function sha256(text) {
  const K = [0x428a2f98,0x71374491,0xb5c0fbcf,0xe9b5dba5,0x3956c25b,0x59f111f1,0x923f82a4,0xab1c5ed5,0xd807aa98,0x12835b01,0x243185be,0x550c7dc3,0x72be5d74,0x80deb1fe,0x9bdc06a7,0xc19bf174,0xe49b69c1,0xefbe4786,0x0fc19dc6,0x240ca1cc,0x2de92c6f,0x4a7484aa,0x5cb0a9dc,0x76f988da,0x983e5152,0xa831c66d,0xb00327c8,0xbf597fc7,0xc6e00bf3,0xd5a79147,0x06ca6351,0x14292967,0x27b70a85,0x2e1b2138,0x4d2c6dfc,0x53380d13,0x650a7354,0x766a0abb,0x81c2c92e,0x92722c85,0xa2bfe8a1,0xa81a664b,0xc24b8b70,0xc76c51a3,0xd192e819,0xd6990624,0xf40e3585,0x106aa070,0x19a4c116,0x1e376c08,0x2748774c,0x34b0bcb5,0x391c0cb3,0x4ed8aa4a,0x5b9cca4f,0x682e6ff3,0x748f82ee,0x78a5636f,0x84c87814,0x8cc70208,0x90befffa,0xa4506ceb,0xbef9a3f7,0xc67178f2];
  const bytes = new TextEncoder().encode(text);
  const length = ((bytes.length + 9 + 63) >> 6) << 6;
  const data = new Uint8Array(length);
  data.set(bytes);
  data[bytes.length] = 0x80;
  const view = new DataView(data.buffer);
  view.setUint32(length - 4, bytes.length * 8);
  view.setUint32(length - 8, Math.floor(bytes.length / 0x20000000));
  const h = [0x6a09e667,0xbb67ae85,0x3c6ef372,0xa54ff53a,0x510e527f,0x9b05688c,0x1f83d9ab,0x5be0cd19];
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let offset = 0; offset < length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] = (h[0] + a) >>> 0; h[1] = (h[1] + b) >>> 0; h[2] = (h[2] + c) >>> 0; h[3] = (h[3] + d) >>> 0;
    h[4] = (h[4] + e) >>> 0; h[5] = (h[5] + f) >>> 0; h[6] = (h[6] + g) >>> 0; h[7] = (h[7] + hh) >>> 0;
  }
  return h.map((x) => x.toString(16).padStart(8, '0')).join('');
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== false) node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

async function call(method, path, body, raw) {
  const headers = { 'accept-language': lang === 'en' ? 'en' : 'zh' };
  const token = sessionStorage.getItem(KEY);
  if (token) headers.authorization = 'Bearer ' + token;
  const init = { method, headers };
  if (raw) init.body = raw;
  else if (body !== undefined) { headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
  const response = await fetch(base + '/api' + path, init);
  const answer = await response.json().catch(() => ({}));
  if (response.status === 401 && path !== '/login' && path !== '/sso') { sessionStorage.removeItem(KEY); }
  if (!response.ok) {
    const error = new Error((answer.license ? T.updateLicence : '') + (answer.message || response.statusText));
    error.status = response.status;
    error.fields = answer.fields || {};
    throw error;
  }
  return answer;
}

function errorLine() { return el('p', { class: 'error', role: 'alert', 'data-testid': 'error' }); }

async function signInView(message) {
  const error = errorLine();
  if (message) error.textContent = message;
  const username = el('input', { name: 'username', autocomplete: 'username', required: true, maxlength: '64' });
  const password = el('input', { name: 'password', type: 'password', autocomplete: 'current-password', required: true, maxlength: '30' });
  const owner = el('input', { name: 'owner', type: 'checkbox' });
  const codeBox = el('div');
  let codeId;
  const askCode = async () => {
    codeBox.replaceChildren();
    codeId = undefined;
    const captcha = await call('GET', '/captcha?username=' + encodeURIComponent(username.value) + '&owner=' + owner.checked).catch(() => ({ required: false }));
    if (!captcha.required) return;
    codeId = captcha.id;
    const image = el('img', { alt: T.code, src: 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(captcha.svg) });
    codeBox.append(el('label', {}, T.code, el('input', { name: 'code', required: true, maxlength: '16' }), image));
  };
  username.addEventListener('change', askCode);
  const form = el('form', { class: 'stack', 'data-testid': 'sign-in', onsubmit: async (event) => {
    event.preventDefault();
    error.textContent = '';
    const code = codeBox.querySelector('input');
    try {
      const session = await call('POST', '/login', {
        username: username.value.trim(), password: sha256(password.value), owner: owner.checked,
        ...(code ? { code: code.value, codeId } : {}),
      });
      sessionStorage.setItem(KEY, session.token);
      await start();
    } catch (failure) {
      error.textContent = failure.message;
      await askCode();
    }
  } },
    el('label', {}, T.username, username),
    el('label', {}, T.password, password),
    codeBox,
    el('label', { class: 'inline' }, owner, T.owner),
    el('button', { type: 'submit' }, T.signIn),
    error);
  const logo = root.dataset.logo ? el('img', { class: 'logo', src: root.dataset.logo, alt: '' }) : null;
  root.replaceChildren(el('main', { class: 'card' }, logo, el('h1', {}, root.dataset.name), form));
  await askCode();
}

function grantPanel(project) {
  const g = project.grant || {};
  return el('section', { class: 'panel', 'data-testid': 'grant' },
    el('h2', {}, T.grant),
    el('table', {}, el('tbody', {},
      el('tr', {}, el('th', {}, T.start), el('td', {}, g.startTime || '')),
      el('tr', {}, el('th', {}, T.end), el('td', {}, g.endTime || '')),
      el('tr', {}, el('th', {}, T.remaining), el('td', {}, String(g.remainingTime ?? ''))),
      el('tr', {}, el('th', {}, T.users), el('td', {}, String(g.userCount ?? ''))))));
}

function flatten(nodes, depth, out) {
  for (const node of nodes) {
    out.push({ node, depth });
    if (node.child) flatten(node.child, depth + 1, out);
  }
  return out;
}

async function mediaPanel(panel) {
  const error = errorLine();
  const folder = el('input', { name: 'folder', placeholder: T.folder });
  const refresh = async () => {
    const nodes = await call('GET', '/media/tree');
    const rows = flatten(nodes, 0, []).map(({ node, depth }) => el('tr', { 'data-path': node.path },
      el('td', {}, '\u00a0'.repeat(depth * 4) + (node.type === 'dir' ? '📁 ' : '') + node.name),
      el('td', {}, node.size === undefined ? '' : String(node.size)),
      el('td', {},
        el('button', { class: 'link', type: 'button', onclick: () => act(async () => {
          const name = prompt(T.newName, node.name);
          if (name) await call('POST', '/media/rename', { path: node.path, name });
        }) }, T.rename),
        el('button', { class: 'link', type: 'button', onclick: () => act(async () => {
          if (confirm(T.confirm)) await call('DELETE', '/media?path=' + encodeURIComponent(node.path));
        }) }, T.remove))));
    table.replaceChildren(el('tbody', {}, rows.length ? rows : el('tr', {}, el('td', {}, T.empty))));
  };
  const act = async (work) => {
    error.textContent = '';
    try { await work(); await refresh(); } catch (failure) { error.textContent = failure.message; }
  };
  const table = el('table', { 'data-testid': 'media' });
  const file = el('input', { type: 'file', multiple: true, name: 'file' });
  panel.replaceChildren(el('h2', {}, T.media),
    el('div', {}, folder,
      el('button', { type: 'button', onclick: () => act(() => call('POST', '/media/dir', { path: folder.value.trim() })) }, T.newFolder),
      ' ', file,
      el('button', { type: 'button', onclick: () => act(async () => {
        const data = new FormData();
        for (const f of file.files) data.append('file', f, f.name);
        await call('POST', '/media/upload?path=' + encodeURIComponent(folder.value.trim()), undefined, data);
        file.value = '';
      }) }, T.upload)),
    error, table);
  await act(async () => {});
}

async function usersPanel(panel) {
  const error = errorLine();
  const table = el('table', { 'data-testid': 'users' });
  const roles = await call('GET', '/roles');
  const act = async (work) => {
    error.textContent = '';
    try { await work(); await refresh(); } catch (failure) { error.textContent = failure.message; }
  };
  const refresh = async () => {
    const users = await call('GET', '/users');
    table.replaceChildren(el('thead', {}, el('tr', {}, el('th', {}, T.username), el('th', {}, T.name), el('th', {}, T.roles), el('th', {}, T.status), el('th', {}))),
      el('tbody', {}, users.map((user) => el('tr', { 'data-username': user.username },
        el('td', {}, user.username), el('td', {}, user.name),
        el('td', {}, user.roles.map((id) => (roles.find((r) => r.id === id) || { name: id }).name).join(', ')),
        el('td', {}, user.status ? T.on : T.off),
        el('td', {},
          el('button', { class: 'link', type: 'button', onclick: () => act(() => call('PATCH', '/users/' + user.id, { status: !user.status })) }, user.status ? T.disable : T.enable),
          el('button', { class: 'link', type: 'button', onclick: () => act(async () => { if (confirm(T.confirm)) await call('DELETE', '/users/' + user.id); }) }, T.remove))))));
  };
  const username = el('input', { name: 'new-username', placeholder: T.username, required: true });
  const name = el('input', { name: 'new-name', placeholder: T.name });
  const password = el('input', { name: 'new-password', type: 'password', placeholder: T.password, required: true, minlength: '6', maxlength: '30' });
  const roleBoxes = roles.map((role) => el('label', { class: 'inline' }, el('input', { type: 'checkbox', value: role.id }), role.name));
  const form = el('form', { 'data-testid': 'add-user', onsubmit: (event) => {
    event.preventDefault();
    act(async () => {
      await call('POST', '/users', { username: username.value.trim(), name: name.value.trim() || undefined, password: sha256(password.value),
        roles: roleBoxes.map((box) => box.querySelector('input')).filter((box) => box.checked).map((box) => box.value) });
      form.reset();
    });
  } }, username, name, password, roleBoxes, el('button', { type: 'submit' }, T.add));
  panel.replaceChildren(el('h2', {}, T.projectUsers), form, error, table);
  await act(async () => {});
}

async function rolesPanel(panel) {
  const error = errorLine();
  const table = el('table', { 'data-testid': 'roles' });
  const act = async (work) => {
    error.textContent = '';
    try { await work(); await refresh(); } catch (failure) { error.textContent = failure.message; }
  };
  const refresh = async () => {
    const roles = await call('GET', '/roles');
    table.replaceChildren(el('tbody', {}, roles.map((role) => el('tr', {}, el('td', {}, role.name), el('td', {}, role.remarks),
      el('td', {}, el('button', { class: 'link', type: 'button', onclick: () => act(async () => { if (confirm(T.confirm)) await call('DELETE', '/roles/' + role.id); }) }, T.remove))))));
  };
  const name = el('input', { name: 'role-name', placeholder: T.name, required: true });
  const remarks = el('input', { name: 'role-remarks', placeholder: T.remarks });
  const form = el('form', { onsubmit: (event) => {
    event.preventDefault();
    act(async () => { await call('POST', '/roles', { name: name.value.trim(), remarks: remarks.value }); form.reset(); });
  } }, name, remarks, el('button', { type: 'submit' }, T.add));
  panel.replaceChildren(el('h2', {}, T.roles), form, error, table);
  await act(async () => {});
}

/** Fields a record form edits: the ones a user types (computed, sub-table and media fields are shown, not edited here). */
const EDITABLE = new Set(['text', 'number', 'date', 'time', 'boolean', 'rating', 'select', 'multiSelect', 'link', 'region']);

function shown(value) {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function typed(field, input) {
  if (field.type === 'boolean') return input.checked;
  const text = input.value.trim();
  if (text === '') return undefined;
  if (field.type === 'number' || field.type === 'rating') return Number(text);
  if (field.type === 'multiSelect' || field.type === 'region') {
    try { return JSON.parse(text); } catch { return text.split(',').map((part) => part.trim()).filter(Boolean); }
  }
  return text;
}

async function tablesPanel(panel) {
  const error = errorLine();
  const tables = await call('GET', '/tables');
  if (tables.length === 0) { panel.replaceChildren(el('h2', {}, T.tables), el('p', {}, T.empty)); return; }
  const picker = el('select', { name: 'table', 'aria-label': T.table },
    tables.map((t) => el('option', { value: t.id }, t.title || t.name)));
  const records = el('table', { 'data-testid': 'records' });
  const form = el('form', { 'data-testid': 'record-form' });
  let editing;
  const current = () => tables.find((t) => t.id === picker.value);
  const act = async (work) => {
    error.textContent = '';
    try { await work(); await refresh(); } catch (failure) { error.textContent = failure.message; }
  };
  const fill = (record) => {
    const table = current();
    editing = record;
    const inputs = table.fields.filter((f) => EDITABLE.has(f.type)).map((field) => {
      const value = record ? record.data[field.name] : undefined;
      const input = field.type === 'boolean'
        ? el('input', { type: 'checkbox', name: field.name, checked: value === true })
        : el('input', { name: field.name, value: shown(value), type: field.type === 'number' || field.type === 'rating' ? 'number' : 'text', step: 'any' });
      return { field, input, label: el('label', {}, field.title || field.name, input) };
    });
    form.onsubmit = (event) => {
      event.preventDefault();
      act(async () => {
        const data = {};
        for (const { field, input } of inputs) {
          const value = typed(field, input);
          if (value !== undefined || editing) data[field.name] = value === undefined ? null : value;
        }
        const path = '/tables/' + table.id + '/records';
        if (editing) await call('PATCH', path + '/' + editing.id, data);
        else await call('POST', path, data);
        fill(undefined);
      });
    };
    form.replaceChildren(...inputs.map((i) => i.label),
      el('button', { type: 'submit' }, editing ? T.save : T.add),
      editing ? el('button', { type: 'button', onclick: () => fill(undefined) }, T.cancel) : null);
  };
  const refresh = async () => {
    const table = current();
    const list = await call('GET', '/tables/' + table.id + '/records');
    const columns = table.fields.filter((f) => f.type !== 'subTable');
    records.replaceChildren(
      el('thead', {}, el('tr', {}, columns.map((f) => el('th', {}, f.title || f.name)), el('th', {}, T.time), el('th', {}))),
      el('tbody', {}, list.length === 0 ? el('tr', {}, el('td', {}, T.empty)) : list.map((record) => el('tr', { 'data-record': record.id },
        columns.map((f) => el('td', {}, shown(record.data[f.name]))),
        el('td', {}, record.updateTime.slice(0, 19).replace('T', ' ')),
        el('td', {},
          el('button', { class: 'link', type: 'button', onclick: () => fill(record) }, T.edit),
          el('button', { class: 'link', type: 'button', onclick: () => act(async () => {
            if (confirm(T.confirm)) await call('DELETE', '/tables/' + table.id + '/records/' + record.id);
          }) }, T.remove))))));
  };
  picker.addEventListener('change', () => { fill(undefined); act(async () => {}); });
  panel.replaceChildren(el('h2', {}, T.tables), picker, form, error, records);
  fill(undefined);
  await act(async () => {});
}

async function mainView(me) {
  const panel = el('section', { class: 'panel' });
  const tabs = [['media', T.media, mediaPanel], ['tables', T.tables, tablesPanel]];
  if (me.manager) tabs.push(['users', T.projectUsers, usersPanel], ['roles', T.roles, rolesPanel]);
  const nav = el('nav', { class: 'tabs' });
  const open = (key) => {
    for (const button of nav.children) button.setAttribute('aria-selected', String(button.dataset.tab === key));
    const tab = tabs.find((t) => t[0] === key);
    tab[2](panel).catch((failure) => { panel.textContent = failure.message; });
  };
  for (const [key, label] of tabs) nav.append(el('button', { type: 'button', 'data-tab': key, onclick: () => open(key) }, label));
  const logo = root.dataset.logo ? el('img', { src: root.dataset.logo, alt: '' }) : null;
  root.replaceChildren(el('div', { class: 'shell' },
    el('header', { class: 'bar' }, el('div', {}, logo, ' ', el('strong', { 'data-testid': 'project-name' }, me.project.name)),
      el('div', {}, el('span', { 'data-testid': 'who' }, T.welcome + (me.name || me.username)), ' ',
        el('button', { type: 'button', onclick: async () => { await call('POST', '/logout').catch(() => {}); sessionStorage.removeItem(KEY); await signInView(); } }, T.signOut))),
    grantPanel(me.project), nav, panel));
  open('media');
}

async function start() {
  const sso = new URLSearchParams(location.hash.slice(1)).get('sso');
  if (sso) {
    history.replaceState(null, '', location.pathname + location.search);
    try {
      const session = await call('POST', '/sso', { code: sso });
      sessionStorage.setItem(KEY, session.token);
    } catch (failure) {
      return signInView(failure.message);
    }
  }
  if (!sessionStorage.getItem(KEY)) return signInView();
  try {
    await mainView(await call('GET', '/me'));
  } catch (failure) {
    if (failure.status === 401) return signInView();
    root.replaceChildren(el('main', { class: 'card' }, el('h1', {}, failure.message)));
  }
}

start();
`;
