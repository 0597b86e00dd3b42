import { createHash } from 'node:crypto';
import type { Industry, Language } from '@gantry/shared';
import { coverSvg, overviewSvg } from './template-images.js';

/**
 * The built-in starter templates (issue 14 §1), described here in code: their tables with generated
 * records, device nodes, dashboards, alarm rules, a report, a flow and a data view. `builtinContent`
 * turns a description into the documents and files of its package; nothing binary is stored in the
 * repository (covers and images are drawn as SVG by template-images.ts).
 */

type Text = Record<Language, string>;

interface FieldSpec {
  name: string;
  title: Text;
  type: 'number' | 'text' | 'time';
  unit?: string;
  /** number: the middle value and how far it swings (a daily wave plus a little noise). */
  base?: number;
  spread?: number;
  /** text: values taken in turn. */
  values?: string[];
}

interface TableSpec {
  id: string;
  title: Text;
  fields: FieldSpec[];
  rows: number;
  /** Hours between two records' times (time fields). */
  stepHours?: number;
}

interface RuleSpec {
  id: string;
  title: Text;
  table: string;
  field: string;
  op: '>' | '<';
  value: number;
  level: 'warning' | 'critical';
}

export interface BuiltinTemplate {
  id: string;
  industry: Industry;
  name: Text;
  intro: Text;
  description: Text;
  developer: Text;
  contact: string;
  /** Cover colours (gradient) and the pictogram drawn on it. */
  colours: [string, string];
  icon: 'flame' | 'derrick' | 'lamp';
  tables: TableSpec[];
  devices: { prefix: string; count: number; driver: string; points: string[] };
  dashboards: Array<{ id: string; title: Text; widgets: Array<{ type: string; table: string; field: string }> }>;
  rules: RuleSpec[];
  report: { id: string; title: Text; table: string; fields: string[] };
}

const t = (zh_Hans: string, en: string): Text => ({ zh_Hans, en });
const num = (name: string, title: Text, unit: string, base: number, spread: number): FieldSpec => ({
  name,
  title,
  type: 'number',
  unit,
  base,
  spread,
});

export const BUILTIN_TEMPLATES: readonly BuiltinTemplate[] = [
  {
    id: 'heating-station',
    industry: 'heating',
    name: t('换热站监控', 'Heating station monitoring'),
    intro: t(
      '换热站供回水温度、压力与热量的实时监控、报警和日报。',
      'Supply and return temperatures, pressures and heat of substations: live, alarmed and reported daily.',
    ),
    description: t(
      '面向城市集中供热的换热站监控方案。包含换热站台账、每小时运行记录、一次网与二次网温度压力看板、超温与低压报警规则、换热站日报和报警通知流程。安装后即可接入站内 PLC（Modbus TCP），数据点已按站点配置。',
      'A monitoring solution for the substations of a district heating network: the station register, hourly operating records, a dashboard of primary and secondary loop temperatures and pressures, over-temperature and low-pressure alarm rules, a daily station report and an alarm notification flow. Once installed, connect the stations’ PLCs (Modbus TCP): the data points are already set up per station.',
    ),
    developer: t('Gantry 解决方案团队', 'Gantry solutions team'),
    contact: 'solutions@gantry.example',
    colours: ['#b91c1c', '#f97316'],
    icon: 'flame',
    tables: [
      {
        id: 'station',
        title: t('换热站', 'Stations'),
        rows: 12,
        fields: [
          { name: 'name', title: t('站名', 'Station'), type: 'text', values: stationNames('HS', 12) },
          {
            name: 'district',
            title: t('片区', 'District'),
            type: 'text',
            values: ['North', 'East', 'South', 'West'],
          },
          num('area', t('供热面积', 'Heated area'), 'm²', 60000, 30000),
        ],
      },
      {
        id: 'station_reading',
        title: t('运行记录', 'Operating records'),
        rows: 12 * 48,
        stepHours: 1,
        fields: [
          { name: 'station', title: t('站名', 'Station'), type: 'text', values: stationNames('HS', 12) },
          { name: 'time', title: t('时间', 'Time'), type: 'time' },
          num('supplyTemp', t('一次供水温度', 'Primary supply temperature'), '°C', 95, 12),
          num('returnTemp', t('一次回水温度', 'Primary return temperature'), '°C', 55, 8),
          num('pressure', t('二次供水压力', 'Secondary supply pressure'), 'MPa', 0.45, 0.08),
          num('heat', t('瞬时热量', 'Heat rate'), 'GJ/h', 18, 6),
        ],
      },
    ],
    devices: {
      prefix: 'HS-PLC',
      count: 12,
      driver: 'modbus-tcp',
      points: ['supplyTemp', 'returnTemp', 'pressure', 'heat'],
    },
    dashboards: [
      {
        id: 'overview',
        title: t('供热总览', 'Heating overview'),
        widgets: [
          { type: 'line', table: 'station_reading', field: 'supplyTemp' },
          { type: 'line', table: 'station_reading', field: 'returnTemp' },
          { type: 'gauge', table: 'station_reading', field: 'pressure' },
          { type: 'bar', table: 'station_reading', field: 'heat' },
        ],
      },
      {
        id: 'stations',
        title: t('换热站列表', 'Stations'),
        widgets: [{ type: 'table', table: 'station', field: 'name' }],
      },
    ],
    rules: [
      {
        id: 'over-temperature',
        title: t('一次供水超温', 'Primary supply over temperature'),
        table: 'station_reading',
        field: 'supplyTemp',
        op: '>',
        value: 110,
        level: 'critical',
      },
      {
        id: 'low-pressure',
        title: t('二次供水低压', 'Secondary supply pressure low'),
        table: 'station_reading',
        field: 'pressure',
        op: '<',
        value: 0.3,
        level: 'warning',
      },
    ],
    report: {
      id: 'daily',
      title: t('换热站日报', 'Daily station report'),
      table: 'station_reading',
      fields: ['supplyTemp', 'returnTemp', 'heat'],
    },
  },
  {
    id: 'oilfield-wells',
    industry: 'oilfield',
    name: t('油井生产监控', 'Oilfield well monitoring'),
    intro: t(
      '抽油机井的产量、油压、套压与功图监控，停井与低产报警。',
      'Production, tubing and casing pressure of pumping wells; alarms for stopped and low-producing wells.',
    ),
    description: t(
      '面向油田采油厂的单井监控方案。包含油井台账、每日生产记录、井口压力与产液量看板、停井与低产报警规则、采油日报和巡检派单流程。',
      'A well monitoring solution for an oil production plant: the well register, daily production records, a dashboard of wellhead pressures and liquid output, stopped-well and low-production alarm rules, a daily production report and an inspection dispatch flow.',
    ),
    developer: t('Gantry 解决方案团队', 'Gantry solutions team'),
    contact: 'solutions@gantry.example',
    colours: ['#1e293b', '#ca8a04'],
    icon: 'derrick',
    tables: [
      {
        id: 'well',
        title: t('油井', 'Wells'),
        rows: 30,
        fields: [
          { name: 'name', title: t('井号', 'Well'), type: 'text', values: stationNames('W', 30) },
          { name: 'block', title: t('区块', 'Block'), type: 'text', values: ['A-1', 'A-2', 'B-1'] },
          num('depth', t('井深', 'Depth'), 'm', 2200, 600),
        ],
      },
      {
        id: 'production',
        title: t('生产日报记录', 'Daily production'),
        rows: 30 * 30,
        stepHours: 24,
        fields: [
          { name: 'well', title: t('井号', 'Well'), type: 'text', values: stationNames('W', 30) },
          { name: 'time', title: t('日期', 'Date'), type: 'time' },
          num('liquid', t('产液量', 'Liquid output'), 't/d', 24, 10),
          num('oil', t('产油量', 'Oil output'), 't/d', 8, 4),
          num('tubingPressure', t('油压', 'Tubing pressure'), 'MPa', 1.2, 0.4),
          num('casingPressure', t('套压', 'Casing pressure'), 'MPa', 0.8, 0.3),
        ],
      },
    ],
    devices: { prefix: 'RTU', count: 30, driver: 'modbus-rtu', points: ['liquid', 'tubingPressure', 'casingPressure'] },
    dashboards: [
      {
        id: 'production',
        title: t('生产总览', 'Production overview'),
        widgets: [
          { type: 'bar', table: 'production', field: 'liquid' },
          { type: 'line', table: 'production', field: 'oil' },
          { type: 'gauge', table: 'production', field: 'tubingPressure' },
          { type: 'map', table: 'well', field: 'name' },
        ],
      },
    ],
    rules: [
      {
        id: 'low-output',
        title: t('低产', 'Low production'),
        table: 'production',
        field: 'liquid',
        op: '<',
        value: 5,
        level: 'warning',
      },
      {
        id: 'stopped',
        title: t('停井', 'Well stopped'),
        table: 'production',
        field: 'tubingPressure',
        op: '<',
        value: 0.2,
        level: 'critical',
      },
    ],
    report: {
      id: 'daily',
      title: t('采油日报', 'Daily production report'),
      table: 'production',
      fields: ['liquid', 'oil'],
    },
  },
  {
    id: 'street-lighting',
    industry: 'smartCity',
    name: t('智慧路灯', 'Smart street lighting'),
    intro: t(
      '单灯控制、能耗统计与故障报警的城市路灯管理。',
      'City street lights: per-lamp control, energy statistics and fault alarms.',
    ),
    description: t(
      '面向城市照明管理处的智慧路灯方案。包含路灯台账、回路能耗记录、亮灯率与能耗看板、灯具故障与回路过流报警规则、月度能耗报表和按日落时间开关灯的流程。',
      'A smart street lighting solution for a city lighting office: the lamp register, circuit energy records, a dashboard of lighting rate and energy, lamp fault and circuit over-current alarm rules, a monthly energy report and a flow that switches lights at dusk and dawn.',
    ),
    developer: t('Gantry 解决方案团队', 'Gantry solutions team'),
    contact: 'solutions@gantry.example',
    colours: ['#0f766e', '#22d3ee'],
    icon: 'lamp',
    tables: [
      {
        id: 'lamp',
        title: t('路灯', 'Lamps'),
        rows: 120,
        fields: [
          { name: 'name', title: t('灯号', 'Lamp'), type: 'text', values: stationNames('L', 120) },
          { name: 'road', title: t('道路', 'Road'), type: 'text', values: ['Ring Rd', 'Park Ave', 'Harbour St'] },
          num('power', t('额定功率', 'Rated power'), 'W', 150, 60),
        ],
      },
      {
        id: 'circuit_energy',
        title: t('回路能耗', 'Circuit energy'),
        rows: 8 * 60,
        stepHours: 12,
        fields: [
          { name: 'circuit', title: t('回路', 'Circuit'), type: 'text', values: stationNames('C', 8) },
          { name: 'time', title: t('时间', 'Time'), type: 'time' },
          num('energy', t('电量', 'Energy'), 'kWh', 120, 40),
          num('current', t('电流', 'Current'), 'A', 22, 8),
          num('lightingRate', t('亮灯率', 'Lighting rate'), '%', 96, 3),
        ],
      },
    ],
    devices: { prefix: 'LCU', count: 8, driver: 'nb-iot', points: ['energy', 'current'] },
    dashboards: [
      {
        id: 'city',
        title: t('城市照明', 'City lighting'),
        widgets: [
          { type: 'map', table: 'lamp', field: 'name' },
          { type: 'line', table: 'circuit_energy', field: 'energy' },
          { type: 'gauge', table: 'circuit_energy', field: 'lightingRate' },
        ],
      },
    ],
    rules: [
      {
        id: 'over-current',
        title: t('回路过流', 'Circuit over-current'),
        table: 'circuit_energy',
        field: 'current',
        op: '>',
        value: 35,
        level: 'critical',
      },
      {
        id: 'lighting-rate',
        title: t('亮灯率低', 'Lighting rate low'),
        table: 'circuit_energy',
        field: 'lightingRate',
        op: '<',
        value: 90,
        level: 'warning',
      },
    ],
    report: {
      id: 'monthly',
      title: t('月度能耗报表', 'Monthly energy report'),
      table: 'circuit_energy',
      fields: ['energy'],
    },
  },
];

function stationNames(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}-${String(i + 1).padStart(2, '0')}`);
}

/** A document of the package: its collection, id and body. */
export interface PackageDocument {
  collection: string;
  id: string;
  doc: Record<string, unknown>;
}

/** What a built-in template's package holds: documents, and files by kind and path. */
export interface PackageContent {
  documents: PackageDocument[];
  files: Array<{ kind: 'fileServer' | 'html'; path: string; bytes: Buffer }>;
}

/** Every record's times start here (the content is the same on every machine and every start). */
const EPOCH = Date.UTC(2026, 0, 1);

/** A small deterministic generator (mulberry32), so a package is the same at every build. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

function recordValues(table: TableSpec, row: number, next: () => number): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const step = table.stepHours ?? 1;
  // Records come in rounds: every entity of the first text field once per time step.
  const entities = table.fields.find((field) => field.type === 'text')?.values?.length ?? 1;
  const round_ = Math.floor(row / entities);
  for (const field of table.fields) {
    if (field.type === 'time') values[field.name] = new Date(EPOCH + round_ * step * 3600_000).toISOString();
    else if (field.type === 'text') values[field.name] = field.values?.[row % field.values.length] ?? '';
    else {
      const wave = Math.sin((2 * Math.PI * ((round_ * step) % 24)) / 24);
      const base = field.base ?? 0;
      const spread = field.spread ?? 0;
      values[field.name] = round(base + spread * (0.6 * wave + 0.4 * (next() * 2 - 1)), base < 10 ? 3 : 1);
    }
  }
  return values;
}

/** The documents and files of a built-in template's package (the same bytes every time). */
export function builtinContent(template: BuiltinTemplate): PackageContent {
  const documents: PackageDocument[] = [];
  const add = (collection: string, id: string, doc: Record<string, unknown>) => documents.push({ collection, id, doc });
  const next = random(template.id.length * 7919 + template.tables.length);
  for (const table of template.tables) {
    add('table', table.id, {
      name: table.id,
      title: table.title.zh_Hans,
      titleEn: table.title.en,
      fields: table.fields.map((field) => ({
        name: field.name,
        title: field.title.zh_Hans,
        titleEn: field.title.en,
        type: field.type,
        ...(field.unit ? { unit: field.unit } : {}),
      })),
    });
    for (let row = 0; row < table.rows; row++) {
      add('table_record', `${table.id}-${String(row + 1).padStart(5, '0')}`, {
        tableId: table.id,
        ...recordValues(table, row, next),
      });
    }
    add('dataset_view', `${table.id}-all`, {
      name: `${table.id}-all`,
      title: table.title.zh_Hans,
      source: { table: table.id },
      columns: table.fields.map((field) => field.name),
      sort: { [table.fields.find((field) => field.type === 'time')?.name ?? table.fields[0]?.name ?? 'id']: -1 },
    });
  }
  const { devices } = template;
  for (let i = 1; i <= devices.count; i++) {
    const name = `${devices.prefix}-${String(i).padStart(2, '0')}`;
    add('driver_instance', name, {
      name,
      driver: devices.driver,
      enabled: false,
      address: devices.driver === 'modbus-tcp' ? `192.168.10.${i + 10}:502` : `unit ${i}`,
      points: devices.points.map((point, register) => ({ name: point, register: 40001 + register * 2 })),
    });
  }
  add('catalog', 'dashboards', {
    name: 'dashboards',
    title: template.name.zh_Hans,
    items: template.dashboards.map((dashboard) => dashboard.id),
  });
  for (const dashboard of template.dashboards) {
    add('dashboard', dashboard.id, {
      name: dashboard.id,
      title: dashboard.title.zh_Hans,
      titleEn: dashboard.title.en,
      size: { width: 1920, height: 1080 },
      background: template.colours[0],
      widgets: dashboard.widgets.map((widget, i) => ({
        id: `w${i + 1}`,
        type: widget.type,
        position: { x: (i % 2) * 960, y: Math.floor(i / 2) * 540, width: 960, height: 540 },
        data: { table: widget.table, field: widget.field },
      })),
    });
  }
  for (const rule of template.rules) {
    add('rule', rule.id, {
      name: rule.id,
      title: rule.title.zh_Hans,
      titleEn: rule.title.en,
      enabled: true,
      level: rule.level,
      condition: { table: rule.table, field: rule.field, op: rule.op, value: rule.value },
      actions: [{ type: 'notify', flow: 'alarm-notify' }],
    });
  }
  add('report', template.report.id, {
    name: template.report.id,
    title: template.report.title.zh_Hans,
    titleEn: template.report.title.en,
    source: { table: template.report.table },
    columns: template.report.fields.map((field) => ({ field, aggregate: ['avg', 'max', 'min'] })),
    schedule: template.report.id === 'monthly' ? 'monthly' : 'daily',
  });
  add('flow', 'alarm-notify', {
    name: 'alarm-notify',
    title: '报警通知',
    titleEn: 'Alarm notification',
    trigger: { type: 'rule' },
    steps: [
      { type: 'message', to: 'role:operator' },
      { type: 'record', table: template.tables[1]?.id ?? template.tables[0]?.id },
    ],
  });
  add('role', 'operator', { name: 'operator', title: '值班员', titleEn: 'Operator', rights: ['dashboard.view'] });

  const readings = documents.filter((d) => d.collection === 'table_record' && d.doc.tableId === template.tables[1]?.id);
  const field = template.tables[1]?.fields.find((f) => f.type === 'number')?.name ?? '';
  const series = readings.slice(0, 48).map((d) => Number(d.doc[field] ?? 0));
  const files: PackageContent['files'] = [
    { kind: 'fileServer', path: 'template/cover.svg', bytes: Buffer.from(coverSvg(template, 'zh_Hans')) },
    { kind: 'fileServer', path: 'template/overview.svg', bytes: Buffer.from(overviewSvg(template, series, 'zh_Hans')) },
    { kind: 'html', path: 'index.html', bytes: Buffer.from(frontPage(template)) },
  ];
  return { documents, files };
}

/** A built-in's description picture: its first 48 readings drawn as a line (`templates/{id}/images/1.svg`). */
export function builtinOverviewSvg(template: BuiltinTemplate, language: Language): string {
  const readings = builtinContent(template).documents.filter(
    (document) => document.collection === 'table_record' && document.doc.tableId === template.tables[1]?.id,
  );
  const field = template.tables[1]?.fields.find((f) => f.type === 'number')?.name ?? '';
  return overviewSvg(
    template,
    readings.slice(0, 48).map((document) => Number(document.doc[field] ?? 0)),
    language,
  );
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function frontPage(template: BuiltinTemplate): string {
  return `<!doctype html>
<html lang="zh-Hans"><head><meta charset="utf-8"><title>${escapeHtml(template.name.zh_Hans)}</title></head>
<body style="font-family:sans-serif;margin:2rem">
<h1>${escapeHtml(template.name.zh_Hans)}</h1>
<p>${escapeHtml(template.intro.zh_Hans)}</p>
<p>${escapeHtml(template.intro.en)}</p>
</body></html>
`;
}

/** The hash of a built-in's description and content: its package is rebuilt when the code changes it. */
export function builtinVersion(template: BuiltinTemplate, content: PackageContent): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify(template));
  for (const document of content.documents) hash.update(JSON.stringify(document));
  for (const file of content.files) hash.update(file.path).update(file.bytes);
  return hash.digest('hex').slice(0, 32);
}
