import { z } from 'zod';
import { checkMediaPath } from '../media.js';
import {
  DATE_FORMATS,
  type DateFormat,
  EMAIL,
  isColour,
  isDateValue,
  isIdCard,
  isTimeValue,
  MOBILE,
  NUMBER_FORMATS,
  PHONE,
} from './formats.js';
import type { FieldMessageKey } from './messages.js';
import { isRegionPath, regionReference } from './regions.js';

/**
 * The one field-type registry (backups-data-designer.md §4a "Field types"): for every type its
 * options schema (what the designer saves), its value schema (what a record holds; the same on the
 * server and in the console) and its filter operators (the query language's, §7).
 */

/** The query language's operators a field's filter may offer (§7). */
export type FilterOperator = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'nin' | 'like';
const TEXT_FILTERS: readonly FilterOperator[] = ['eq', 'ne', 'like', 'in', 'nin'];
const ORDER_FILTERS: readonly FilterOperator[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin'];
const RANGE_FILTERS: readonly FilterOperator[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'];
const CHOICE_FILTERS: readonly FilterOperator[] = ['eq', 'ne', 'in', 'nin'];

/** Bounds of ours where the spec names none. */
export const FIELD_LIMITS = {
  text: 10_000,
  richText: 1_000_000,
  options: 500,
  choiceValue: 200,
  subTableRows: 1_000,
  subTableFields: 100,
  mediaFiles: 50,
  mediaMB: 2_048,
  byteArray: 1_000_000,
  formula: 2_000,
  script: 20_000,
} as const;

const msg = (key: FieldMessageKey) => ({ error: key });
const positiveInt = z.number().int();

// ---- options ---------------------------------------------------------------------------------

export const TEXT_KINDS = ['ordinary', 'password', 'email', 'phone', 'mobile', 'number', 'idCard', 'richText'] as const;
export type TextKind = (typeof TEXT_KINDS)[number];

const textOptions = z.strictObject({
  kind: z.enum(TEXT_KINDS).default('ordinary'),
  multiline: z.boolean().default(false),
  maxLength: positiveInt.min(1).max(FIELD_LIMITS.richText).optional(),
  default: z.string().max(FIELD_LIMITS.text).optional(),
});

const numberOptions = z
  .strictObject({
    unit: z.string().max(20).optional(),
    /** Decimals allowed (1 to 9); none: a whole number. */
    decimals: positiveInt.min(1).max(9).optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    format: z.enum(NUMBER_FORMATS).default('plain'),
    default: z.number().optional(),
  })
  .superRefine((o, ctx) => {
    if (o.min !== undefined && o.max !== undefined && o.max < o.min) {
      ctx.addIssue({ code: 'custom', path: ['max'], message: 'field.maxBelowMin' });
      ctx.addIssue({ code: 'custom', path: ['min'], message: 'field.minAboveMax' });
    }
  });

const dateOptions = z.strictObject({ format: z.enum(DATE_FORMATS).default('yearMonthDay') });
const timeOptions = z.strictObject({ seconds: z.boolean().default(true) });
const noOptions = z.strictObject({});
const ratingOptions = z.strictObject({ max: z.union([z.literal(5), z.literal(10)]).default(5) });

const colour = z
  .string()
  .max(64)
  .refine((value) => isColour(value), msg('field.colour'));
const choiceOption = z.strictObject({
  value: z.string().min(1).max(FIELD_LIMITS.choiceValue),
  label: z.string().max(FIELD_LIMITS.choiceValue).optional(),
  color: colour.optional(),
});
function choiceOptions<D extends z.ZodType>(defaultValue: D, multiple: boolean) {
  return z
    .strictObject({
      options: z.array(choiceOption).min(1, msg('field.choiceEmpty')).max(FIELD_LIMITS.options),
      /** Multiple choice: how many may be chosen at most. */
      maxSelected: positiveInt.min(1).max(FIELD_LIMITS.options).optional(),
      default: defaultValue.optional(),
    })
    .superRefine((o, ctx) => {
      const seen = new Set<string>();
      o.options.forEach((option, index) => {
        if (seen.has(option.value))
          ctx.addIssue({ code: 'custom', path: ['options', index, 'value'], message: 'field.choiceDuplicate' });
        seen.add(option.value);
      });
      const defaults: unknown[] =
        o.default === undefined ? [] : multiple && Array.isArray(o.default) ? o.default : [o.default];
      if (defaults.some((value) => typeof value !== 'string' || !seen.has(value)))
        ctx.addIssue({ code: 'custom', path: ['default'], message: 'field.defaultUnknown' });
      const limit = multiple ? (o.maxSelected ?? o.options.length) : 1;
      if (defaults.length > limit) ctx.addIssue({ code: 'custom', path: ['default'], message: 'field.defaultTooMany' });
    });
}

export const AUTO_NUMBER_DATE_PARTS = ['none', 'YYYY', 'YYYYMM', 'YYYYMMDD'] as const;
const autoNumberOptions = z.strictObject({
  /** Digits of the counter. */
  digits: positiveInt.min(1).max(18).default(6),
  /** Pad the counter with zeros to `digits`. */
  padding: z.boolean().default(true),
  start: positiveInt.min(0).max(1e15).default(1),
  step: positiveInt.min(1).max(1e6).default(1),
  /** Fixed content before the number. */
  prefix: z.string().max(32).default(''),
  /** The record's creation time before the number. */
  datePart: z.enum(AUTO_NUMBER_DATE_PARTS).default('none'),
});

export const REGION_LEVELS = ['province', 'city', 'county'] as const;
const regionOptions = z.strictObject({ level: z.enum(REGION_LEVELS).default('county') });

export const MEDIA_TYPES = ['file', 'image', 'imageCard', 'video', 'audio'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];
export const STORAGE_MODES = ['unspecified', 'folder', 'onUpload'] as const;
/** §4a: the default image preview is 300×300. */
export const IMAGE_PREVIEW = { width: 300, height: 300 } as const;
const mediaOptions = z
  .strictObject({
    maxCount: positiveInt.min(1).max(FIELD_LIMITS.mediaFiles).default(1),
    maxSizeMB: z.number().positive().max(FIELD_LIMITS.mediaMB).default(20),
    /** File name extensions allowed (without the dot); none: any of the type's family. */
    accept: z
      .array(z.string().regex(/^[A-Za-z0-9]{1,10}$/))
      .max(50)
      .optional(),
    watermark: z.boolean().default(false),
    storage: z.enum(STORAGE_MODES).default('unspecified'),
    folder: z.string().max(255).optional(),
    previewWidth: positiveInt.min(16).max(4096).default(IMAGE_PREVIEW.width),
    previewHeight: positiveInt.min(16).max(4096).default(IMAGE_PREVIEW.height),
  })
  .superRefine((o, ctx) => {
    if (o.storage === 'folder' && !o.folder)
      ctx.addIssue({ code: 'custom', path: ['folder'], message: 'field.options' });
  });

export const FORMULA_RESULTS = ['number', 'text', 'boolean'] as const;
const formulaOptions = z.strictObject({
  expression: z.string().min(1).max(FIELD_LIMITS.formula),
  result: z.enum(FORMULA_RESULTS).default('number'),
  decimals: positiveInt.min(0).max(9).optional(),
});
const lookupOptions = z.strictObject({
  /** A relation field of this table. */
  relation: z.string().min(1).max(64),
  /** The field of the related table whose value is shown. */
  field: z.string().min(1).max(64),
});
const relationOptions = z.strictObject({
  /** The related table's id. */
  table: z.string().min(1).max(128),
  multiple: z.boolean().default(false),
  /** The related table's field shown for a record. */
  display: z.string().max(64).optional(),
});
const userOptions = z.strictObject({ mode: z.enum(['creator', 'modifier']).default('creator') });
const byteArrayOptions = z.strictObject({ maxBytes: positiveInt.min(1).max(FIELD_LIMITS.byteArray).default(65_536) });
const linkOptions = z.strictObject({ default: z.string().max(2048).optional() });

// ---- values ----------------------------------------------------------------------------------

const TEXT_FORMATS: Partial<Record<TextKind, { test: (value: string) => boolean; message: FieldMessageKey }>> = {
  email: { test: (value) => EMAIL.test(value), message: 'value.email' },
  phone: { test: (value) => PHONE.test(value) || MOBILE.test(value), message: 'value.phone' },
  mobile: { test: (value) => MOBILE.test(value), message: 'value.mobile' },
  idCard: { test: isIdCard, message: 'value.idCard' },
  number: { test: (value) => /^-?\d+(?:\.\d+)?$/.test(value), message: 'value.numeric' },
};

function textValue(o: z.output<typeof textOptions>) {
  const max = o.maxLength ?? (o.kind === 'richText' ? FIELD_LIMITS.richText : FIELD_LIMITS.text);
  const format = TEXT_FORMATS[o.kind];
  return z
    .string(msg('value.type'))
    .max(max, msg('value.tooLong'))
    .refine((value) => !format || value === '' || format.test(value), msg(format?.message ?? 'value.type'));
}

function hasDecimals(value: number, decimals: number): boolean {
  return Number(value.toFixed(decimals)) === value;
}

function numberValue(o: z.output<typeof numberOptions>) {
  return z
    .number(msg('value.number'))
    .refine((value) => Number.isFinite(value), msg('value.number'))
    .refine((value) => (o.decimals === undefined ? Number.isInteger(value) : hasDecimals(value, o.decimals)), {
      error: o.decimals === undefined ? 'value.integer' : 'value.decimals',
      params: { n: o.decimals ?? 0 },
    })
    .refine((value) => o.min === undefined || value >= o.min, msg('value.belowMin'))
    .refine((value) => o.max === undefined || value <= o.max, msg('value.aboveMax'));
}

function dateValue(format: DateFormat) {
  return z
    .union([z.string(), z.number()], msg('value.date'))
    .refine((value) => isDateValue(value, format), msg('value.date'));
}

const locationValue = z.strictObject(
  {
    lng: z.number().min(-180).max(180),
    lat: z.number().min(-90).max(90),
    address: z.string().max(500).optional(),
  },
  msg('value.location'),
);

function choiceValue(o: { options: Array<{ value: string }> }) {
  const allowed = new Set(o.options.map((option) => option.value));
  return z.string(msg('value.choice')).refine((value) => allowed.has(value), msg('value.choice'));
}

/**
 * A region: the codes from the province down to the field's level (6-digit administrative codes);
 * with the reference data installed (the server), a path of its tree.
 */
function regionValue(o: z.output<typeof regionOptions>) {
  const depth = REGION_LEVELS.indexOf(o.level) + 1;
  return z
    .array(z.string().regex(/^\d{6}$/, msg('value.region')), msg('value.region'))
    .min(1, msg('value.region'))
    .max(depth, msg('value.region'))
    .refine((codes) => {
      const tree = regionReference();
      return !tree || isRegionPath(tree, codes, depth);
    }, msg('value.region'));
}

/** Extensions of each media family (besides `file`, which takes any). */
export const MEDIA_FAMILIES: Record<Exclude<MediaType, 'file'>, { mime: string; extensions: readonly string[] }> = {
  image: { mime: 'image/', extensions: ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'svg'] },
  imageCard: { mime: 'image/', extensions: ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'svg'] },
  video: { mime: 'video/', extensions: ['mp4', 'webm', 'ogg', 'mov', 'avi', 'mkv', 'flv'] },
  audio: { mime: 'audio/', extensions: ['mp3', 'wav', 'ogg', 'aac', 'flac', 'm4a'] },
};

/** A file uploaded into the project's media library is addressed `media:<path in the library>`. */
export const MEDIA_URL_PREFIX = 'media:';

const mediaFile = z.strictObject({
  url: z
    .string()
    .min(1)
    .max(2048)
    .refine(
      (url) => !url.startsWith(MEDIA_URL_PREFIX) || checkMediaPath(url.slice(MEDIA_URL_PREFIX.length)).ok,
      msg('value.type'),
    ),
  name: z.string().min(1).max(255),
  size: z.number().int().min(0),
  type: z.string().max(255).optional(),
});
export type MediaFile = z.infer<typeof mediaFile>;
/** A value of a media field's type (its limits are the value schema's: a file being edited may break them). */
export const isMediaFile = (value: unknown): value is MediaFile =>
  typeof value === 'object' &&
  value !== null &&
  'url' in value &&
  typeof value.url === 'string' &&
  'name' in value &&
  typeof value.name === 'string' &&
  'size' in value &&
  typeof value.size === 'number' &&
  (!('type' in value) || value.type === undefined || typeof value.type === 'string');

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** §5 uploads: the file type of image, video and audio fields, the extensions a field allows, its size limit. */
export function mediaFileProblem(
  type: MediaType,
  o: z.output<typeof mediaOptions>,
  file: MediaFile,
): FieldMessageKey | undefined {
  const extension = extensionOf(file.name);
  if (o.accept && !o.accept.some((allowed) => allowed.toLowerCase() === extension)) return 'value.mediaType';
  if (type !== 'file') {
    const family = MEDIA_FAMILIES[type];
    if (!family.extensions.includes(extension)) return 'value.mediaType';
    if (file.type && !file.type.startsWith(family.mime)) return 'value.mediaType';
  }
  if (file.size > o.maxSizeMB * 1024 * 1024) return 'value.mediaSize';
  return undefined;
}

function mediaValue(type: MediaType, o: z.output<typeof mediaOptions>) {
  return z
    .array(mediaFile, msg('value.type'))
    .max(o.maxCount, msg('value.mediaCount'))
    .superRefine((files, ctx) => {
      files.forEach((file, index) => {
        const problem = mediaFileProblem(type, o, file);
        if (problem) ctx.addIssue({ code: 'custom', path: [index], message: problem, params: { max: o.maxSizeMB } });
      });
    });
}

const linkValue = z
  .string(msg('value.link'))
  .max(2048, msg('value.tooLong'))
  .regex(/^https?:\/\/[^\s]+$/i, msg('value.link'));

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
function byteArrayValue(o: z.output<typeof byteArrayOptions>) {
  return z
    .string(msg('value.bytes'))
    .max(Math.ceil(o.maxBytes / 3) * 4, msg('value.tooLong'))
    .regex(BASE64, msg('value.bytes'));
}

const recordId = z.string().min(1).max(128);

// ---- the registry ------------------------------------------------------------------------------

interface TypeDef<O extends z.ZodType> {
  options: O;
  /** The value a record may be given, for these options (sub-tables: see record.ts). */
  value: (options: z.output<O>) => z.ZodType;
  /** Filter operators offered for the type. */
  filters: (options: z.output<O>) => readonly FilterOperator[];
  /** The server sets the value (auto-number, formula, lookup, user); a client's value is refused. */
  computed?: boolean;
}

function def<O extends z.ZodType>(d: TypeDef<O>): TypeDef<O> {
  return d;
}

const any = z.unknown();

export const FIELD_REGISTRY = {
  text: def({
    options: textOptions,
    value: textValue,
    filters: (o) => (o.kind === 'password' ? [] : TEXT_FILTERS),
  }),
  number: def({ options: numberOptions, value: numberValue, filters: () => ORDER_FILTERS }),
  date: def({ options: dateOptions, value: (o) => dateValue(o.format), filters: () => RANGE_FILTERS }),
  time: def({
    options: timeOptions,
    value: (o) => z.string(msg('value.time')).refine((value) => isTimeValue(value, o.seconds), msg('value.time')),
    filters: () => RANGE_FILTERS,
  }),
  dateRange: def({
    options: dateOptions,
    value: (o) =>
      z
        .tuple([dateValue(o.format), dateValue(o.format)], msg('value.date'))
        .refine(([start, end]) => start <= end, msg('value.rangeOrder')),
    filters: () => [],
  }),
  boolean: def({ options: noOptions, value: () => z.boolean(msg('value.type')), filters: () => ['eq', 'ne'] }),
  location: def({ options: noOptions, value: () => locationValue, filters: () => [] }),
  rating: def({
    options: ratingOptions,
    value: (o) =>
      z
        .number(msg('value.rating'))
        .int(msg('value.rating'))
        .min(0, msg('value.rating'))
        .max(o.max, msg('value.rating')),
    filters: () => ORDER_FILTERS,
  }),
  select: def({ options: choiceOptions(z.string(), false), value: choiceValue, filters: () => CHOICE_FILTERS }),
  multiSelect: def({
    options: choiceOptions(z.array(z.string()), true),
    value: (o) =>
      z
        .array(choiceValue(o), msg('value.type'))
        .max(o.maxSelected ?? o.options.length, msg('value.choiceTooMany'))
        .refine((values) => new Set(values).size === values.length, msg('value.choiceRepeated')),
    filters: () => ['in', 'nin'],
  }),
  autoNumber: def({ options: autoNumberOptions, value: () => z.string(), filters: () => TEXT_FILTERS, computed: true }),
  /** Sub-table: the options are checked by the table schema (its fields are fields); rows by record.ts. */
  subTable: def({
    options: z.strictObject({
      fields: z.array(z.looseObject({})).max(FIELD_LIMITS.subTableFields),
      minRows: positiveInt.min(0).max(FIELD_LIMITS.subTableRows).optional(),
      maxRows: positiveInt.min(1).max(FIELD_LIMITS.subTableRows).optional(),
      noDuplicateRows: z.boolean().default(false),
    }),
    value: () => any,
    filters: () => [],
  }),
  region: def({ options: regionOptions, value: regionValue, filters: () => ['in', 'nin'] }),
  file: def({ options: mediaOptions, value: (o) => mediaValue('file', o), filters: () => [] }),
  image: def({ options: mediaOptions, value: (o) => mediaValue('image', o), filters: () => [] }),
  imageCard: def({ options: mediaOptions, value: (o) => mediaValue('imageCard', o), filters: () => [] }),
  video: def({ options: mediaOptions, value: (o) => mediaValue('video', o), filters: () => [] }),
  audio: def({ options: mediaOptions, value: (o) => mediaValue('audio', o), filters: () => [] }),
  link: def({ options: linkOptions, value: () => linkValue, filters: () => ['eq', 'ne', 'like'] }),
  formula: def({
    options: formulaOptions,
    value: () => any,
    filters: (o) => (o.result === 'number' ? ORDER_FILTERS : o.result === 'text' ? TEXT_FILTERS : ['eq', 'ne']),
    computed: true,
  }),
  lookup: def({ options: lookupOptions, value: () => any, filters: () => [], computed: true }),
  relation: def({
    options: relationOptions,
    value: (o) =>
      o.multiple
        ? z
            .array(recordId, msg('value.relation'))
            .max(FIELD_LIMITS.options, msg('value.choiceTooMany'))
            .refine((ids) => new Set(ids).size === ids.length, msg('value.choiceRepeated'))
        : recordId,
    filters: () => CHOICE_FILTERS,
  }),
  user: def({ options: userOptions, value: () => z.string(), filters: () => CHOICE_FILTERS, computed: true }),
  byteArray: def({ options: byteArrayOptions, value: byteArrayValue, filters: () => [] }),
} as const;

export type FieldType = keyof typeof FIELD_REGISTRY;
export const isFieldType = (name: string): name is FieldType => Object.hasOwn(FIELD_REGISTRY, name);
export const FIELD_TYPES: FieldType[] = Object.keys(FIELD_REGISTRY).filter(isFieldType);
export type FieldOptions<T extends FieldType> = z.output<(typeof FIELD_REGISTRY)[T]['options']>;

/** A field's options schema, value schema and filters, by its type. */
export function fieldType<T extends FieldType>(type: T): (typeof FIELD_REGISTRY)[T] {
  return FIELD_REGISTRY[type];
}

export { colour as colourSchema };
