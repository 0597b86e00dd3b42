import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import {
  type ColumnField,
  type DateFormat,
  type Field,
  isMediaFile,
  isRecord,
  MEDIA_URL_PREFIX,
  type MediaFile,
  type MediaType,
  mediaFileProblem,
  type SubTableField,
} from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  DatePicker,
  Input,
  InputNumber,
  Rate,
  Select,
  Space,
  Switch,
  TimePicker,
  Typography,
  Upload,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ScrollTable } from '../../../../components/ScrollTable';
import { toast } from '../../../../services/feedback';
import { likeText } from '../../../../services/list';
import { ensureMediaFolder, uploadMedia } from '../../../../services/media';
import { listRecords } from '../../../../services/tables';
import { choiceOf, textsOf } from '../../../../utils/formValues';
import { dynamicText } from '../texts';
import { RegionEditor } from './regions';

interface Props {
  field: Field;
  value: unknown;
  onChange: (value: unknown) => void;
  testId?: string;
  status?: 'error';
}

const PICKER_FORMATS: Record<'yearMonth' | 'yearMonthDay' | 'dateTime', string> = {
  yearMonth: 'YYYY-MM',
  yearMonthDay: 'YYYY-MM-DD',
  dateTime: 'YYYY-MM-DD HH:mm:ss',
};

function DateInput({
  format,
  value,
  onChange,
  testId,
}: {
  format: DateFormat;
  value: unknown;
  onChange: (value: unknown) => void;
  testId?: string | undefined;
}) {
  if (format === 'timestampSeconds' || format === 'timestampMillis')
    return (
      <InputNumber
        data-testid={testId}
        style={{ width: '100%' }}
        precision={0}
        min={0}
        value={typeof value === 'number' ? value : null}
        onChange={(next) => onChange(next ?? undefined)}
      />
    );
  const pattern = PICKER_FORMATS[format];
  return (
    <DatePicker
      data-testid={testId}
      style={{ width: '100%' }}
      picker={format === 'yearMonth' ? 'month' : 'date'}
      showTime={format === 'dateTime'}
      format={pattern}
      value={typeof value === 'string' && value ? dayjs(value, pattern) : null}
      onChange={(next: Dayjs | null) => onChange(next ? next.format(pattern) : undefined)}
    />
  );
}

/** The key of a sub-table row in its table (rows have no identity but their place). */
export const ROW_KEY = '__row';

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

type MediaField = Extract<Field, { type: MediaType }>;

/** Where uploads go in the media library when the field names no folder. */
export const DEFAULT_MEDIA_FOLDER = 'records';

/** The media library folder of a field's uploads (§4a storage directory mode). */
export function mediaUploadFolder(options: MediaField['options'], chosen: string): string {
  const pick = options.storage === 'folder' ? options.folder : options.storage === 'onUpload' ? chosen : undefined;
  return (pick ?? '').split('/').filter(Boolean).join('/') || DEFAULT_MEDIA_FOLDER;
}

/**
 * Media: files uploaded into the project's media library (addressed `media:<path>`, under a name
 * made unique by its upload time), or any address typed in; each with its name. The field's type,
 * extensions, size and count are checked before the upload (the server checks them again on save).
 */
function MediaInput({
  field,
  value,
  onChange,
  testId,
}: {
  field: MediaField;
  value: unknown;
  onChange: (value: unknown) => void;
  testId?: string | undefined;
}) {
  const { t } = useTranslation();
  const { id: projectId = '' } = useParams();
  const [chosenFolder, setChosenFolder] = useState('');
  const [progress, setProgress] = useState<number>();
  const files = asList(value).filter(isMediaFile);
  const options = field.options;
  const full = files.length >= options.maxCount;
  const set = (index: number, change: Partial<MediaFile>) =>
    onChange(files.map((file, i) => (i === index ? { ...file, ...change } : file)));
  const upload = async (file: File) => {
    const entry: MediaFile = {
      url: 'media:x',
      name: file.name,
      size: file.size,
      ...(file.type ? { type: file.type } : {}),
    };
    const problem = full ? 'value.mediaCount' : mediaFileProblem(field.type, options, entry);
    if (problem) {
      toast.hint(t(problem, { max: options.maxSizeMB }));
      return;
    }
    const folder = mediaUploadFolder(options, chosenFolder);
    const stored = `${Date.now().toString(36)}-${file.name}`;
    setProgress(0);
    try {
      await ensureMediaFolder(projectId, folder);
      const renamed = new File([file], stored, { type: file.type });
      const [done] = await uploadMedia(projectId, folder, [renamed], setProgress);
      if (done) onChange([...files, { ...entry, url: `${MEDIA_URL_PREFIX}${done.path}`, size: done.size }]);
    } catch {
      // the upload's own error was shown
    } finally {
      setProgress(undefined);
    }
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid={testId}>
      {files.map((file, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: files are edited in place
        <Space.Compact key={index} style={{ width: '100%' }}>
          <Input
            data-testid={testId && `${testId}-url-${index}`}
            placeholder={t('designer.rec.mediaUrl')}
            value={file.url}
            onChange={(event) => {
              const url = event.target.value;
              const name = file.name || decodeURIComponent(url.split(/[?#]/)[0]?.split('/').pop() ?? '');
              set(index, { url, name });
            }}
          />
          <Input
            placeholder={t('designer.rec.mediaName')}
            value={file.name}
            onChange={(event) => set(index, { name: event.target.value })}
          />
          <Button icon={<DeleteOutlined />} onClick={() => onChange(files.filter((_file, i) => i !== index))} />
        </Space.Compact>
      ))}
      <Space wrap>
        {options.storage === 'onUpload' && projectId && (
          <Input
            size="small"
            data-testid={testId && `${testId}-folder`}
            placeholder={t('designer.rec.mediaFolder', { folder: DEFAULT_MEDIA_FOLDER })}
            value={chosenFolder}
            onChange={(event) => setChosenFolder(event.target.value)}
          />
        )}
        {/* Uploads go to the project's media library: none before the project exists (its create form). */}
        {projectId && (
          <Upload
            showUploadList={false}
            multiple={false}
            disabled={full || progress !== undefined}
            beforeUpload={(file) => {
              void upload(file);
              return false;
            }}
          >
            <Button
              size="small"
              icon={<UploadOutlined />}
              loading={progress !== undefined}
              disabled={full}
              data-testid={testId && `${testId}-upload`}
            >
              {progress !== undefined ? `${Math.round(progress * 100)}%` : t('designer.rec.mediaUpload')}
            </Button>
          </Upload>
        )}
        <Button
          size="small"
          icon={<PlusOutlined />}
          disabled={full}
          aria-label={t('designer.rec.mediaAddress')}
          data-testid={testId && `${testId}-add`}
          onClick={() => onChange([...files, { url: '', name: '', size: 0 }])}
        />
      </Space>
      <Typography.Text type="secondary" data-testid={testId && `${testId}-hint`}>
        {t('designer.rec.mediaHint', { max: options.maxSizeMB, count: options.maxCount })}
      </Typography.Text>
    </Space>
  );
}

/**
 * A relation: the related table's records to choose from (searched by its display field), shown by
 * that field's value (or the record id).
 */
function RelationInput({
  field,
  value,
  onChange,
  testId,
}: {
  field: Extract<Field, { type: 'relation' }>;
  value: unknown;
  onChange: (value: unknown) => void;
  testId?: string | undefined;
}) {
  const { id: projectId = '' } = useParams();
  const [search, setSearch] = useState('');
  const { table, display, multiple } = field.options;
  const records = useQuery({
    queryKey: ['relation-choices', projectId, table, display, search],
    queryFn: () =>
      listRecords(projectId, table, {
        limit: 50,
        ...(search && display ? { filter: { [display]: { $like: likeText(search) } } } : {}),
      }),
    enabled: projectId !== '',
  });
  const chosen = multiple ? textsOf(value) : typeof value === 'string' ? [value] : [];
  const options = (records.data?.rows ?? []).map((record) => {
    const shown = display ? record.data[display] : undefined;
    return {
      value: record.id,
      label: typeof shown === 'string' || typeof shown === 'number' ? String(shown) : record.id,
    };
  });
  for (const id of chosen) if (!options.some((option) => option.value === id)) options.push({ value: id, label: id });
  return (
    <Select
      data-testid={testId}
      style={{ width: '100%' }}
      allowClear
      showSearch={{ filterOption: false, onSearch: setSearch }}
      mode={multiple ? 'multiple' : undefined}
      loading={records.isFetching}
      value={multiple ? chosen : chosen[0]}
      options={options}
      onChange={(next: string | string[] | undefined) =>
        onChange(Array.isArray(next) ? (next.length ? next : undefined) : (next ?? undefined))
      }
    />
  );
}

/** A sub-table's rows: one editor per column; adding beyond max and removing at min are blocked (§5). */
function SubTableInput({
  field,
  value,
  onChange,
  testId,
}: {
  field: SubTableField;
  value: unknown;
  onChange: (value: unknown) => void;
  testId?: string | undefined;
}) {
  const { t } = useTranslation();
  const rows = asList(value).filter(isRecord);
  const { minRows = 0, maxRows } = field.options;
  return (
    <div data-testid={testId}>
      <ScrollTable<Record<string, unknown>>
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        rowKey={ROW_KEY}
        dataSource={rows.map((row, index) => ({ ...row, [ROW_KEY]: index }))}
        columns={[
          ...field.options.fields.map((column) => ({
            title: column.title,
            key: column.name,
            render: (_: unknown, row: Record<string, unknown>, index: number) => (
              <div style={{ minWidth: 140 }}>
                <ValueEditor
                  field={column}
                  value={row[column.name]}
                  testId={testId && `${testId}-${index}-${column.name}`}
                  onChange={(next) =>
                    onChange(rows.map((item, i) => (i === index ? withValue(item, column.name, next) : item)))
                  }
                />
              </div>
            ),
          })),
          {
            key: 'remove',
            render: (_: unknown, _row: Record<string, unknown>, index: number) => (
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                disabled={rows.length <= minRows}
                onClick={() => onChange(rows.filter((_item, i) => i !== index))}
              />
            ),
          },
        ]}
      />
      <Button
        size="small"
        icon={<PlusOutlined />}
        style={{ marginTop: 4 }}
        data-testid={testId && `${testId}-add`}
        disabled={maxRows !== undefined && rows.length >= maxRows}
        onClick={() => onChange([...rows, {}])}
      >
        {t('designer.rec.addRow')}
      </Button>
    </div>
  );
}

export function withValue(values: Record<string, unknown>, name: string, value: unknown): Record<string, unknown> {
  const next = { ...values };
  if (value === undefined) delete next[name];
  else next[name] = value;
  return next;
}

/** The input of a field type (issue 16 §1: each type's editor); computed types show that the system sets them. */
export function ValueEditor({ field, value, onChange, testId, status }: Props) {
  const { t } = useTranslation();
  const text = typeof value === 'string' ? value : '';
  const common = { 'data-testid': testId, status };
  switch (field.type) {
    case 'text':
      if (field.options.kind === 'password')
        return (
          <Input.Password
            {...common}
            autoComplete="new-password"
            value={text}
            onChange={(e) => onChange(e.target.value || undefined)}
          />
        );
      if (field.options.multiline || field.options.kind === 'richText')
        return (
          <Input.TextArea
            {...common}
            autoSize={{ minRows: field.options.kind === 'richText' ? 4 : 2, maxRows: 12 }}
            value={text}
            onChange={(e) => onChange(e.target.value || undefined)}
          />
        );
      return <Input {...common} value={text} onChange={(e) => onChange(e.target.value || undefined)} />;
    case 'link':
      return (
        <Input
          {...common}
          placeholder="https://"
          value={text}
          onChange={(e) => onChange(e.target.value || undefined)}
        />
      );
    case 'byteArray':
      return (
        <Input.TextArea
          {...common}
          placeholder="base64"
          value={text}
          onChange={(e) => onChange(e.target.value || undefined)}
        />
      );
    case 'number':
      return (
        <InputNumber
          {...common}
          style={{ width: '100%' }}
          precision={field.options.decimals ?? 0}
          suffix={field.options.unit}
          value={typeof value === 'number' ? value : null}
          onChange={(next) => onChange(next ?? undefined)}
        />
      );
    case 'rating':
      return (
        <Rate
          data-testid={testId}
          count={field.options.max}
          value={typeof value === 'number' ? value : 0}
          onChange={(next) => onChange(next)}
        />
      );
    case 'boolean':
      return <Switch data-testid={testId} checked={value === true} onChange={(next) => onChange(next)} />;
    case 'date':
      return <DateInput format={field.options.format} value={value} onChange={onChange} testId={testId} />;
    case 'dateRange': {
      const [start, end] = asList(value);
      return (
        <Space.Compact style={{ width: '100%' }} data-testid={testId}>
          <DateInput
            format={field.options.format}
            value={start}
            testId={testId && `${testId}-start`}
            onChange={(next) => onChange(next === undefined && end === undefined ? undefined : [next, end])}
          />
          <DateInput
            format={field.options.format}
            value={end}
            testId={testId && `${testId}-end`}
            onChange={(next) => onChange(next === undefined && start === undefined ? undefined : [start, next])}
          />
        </Space.Compact>
      );
    }
    case 'time': {
      const pattern = field.options.seconds ? 'HH:mm:ss' : 'HH:mm';
      return (
        <TimePicker
          data-testid={testId}
          style={{ width: '100%' }}
          format={pattern}
          value={text ? dayjs(text, pattern) : null}
          onChange={(next: Dayjs | null) => onChange(next ? next.format(pattern) : undefined)}
        />
      );
    }
    case 'location': {
      const place = (value && typeof value === 'object' ? value : {}) as {
        lng?: number;
        lat?: number;
        address?: string;
      };
      const set = (change: Partial<typeof place>) => {
        const next = { ...place, ...change };
        if (!next.address) delete next.address;
        onChange(next.lng === undefined && next.lat === undefined && !next.address ? undefined : next);
      };
      return (
        <Space.Compact style={{ width: '100%' }} data-testid={testId}>
          <InputNumber
            data-testid={testId && `${testId}-lng`}
            placeholder={t('designer.rec.lng')}
            min={-180}
            max={180}
            value={place.lng ?? null}
            onChange={(lng) => set({ lng: lng ?? undefined })}
          />
          <InputNumber
            data-testid={testId && `${testId}-lat`}
            placeholder={t('designer.rec.lat')}
            min={-90}
            max={90}
            value={place.lat ?? null}
            onChange={(lat) => set({ lat: lat ?? undefined })}
          />
          <Input
            placeholder={t('designer.rec.address')}
            value={place.address ?? ''}
            onChange={(e) => set({ address: e.target.value })}
          />
        </Space.Compact>
      );
    }
    case 'select':
    case 'multiSelect':
      return (
        <Select
          {...common}
          style={{ width: '100%' }}
          allowClear
          mode={field.type === 'multiSelect' ? 'multiple' : undefined}
          value={choiceOf(value)}
          options={field.options.options.map((option) => ({
            value: option.value,
            label: option.label || option.value,
            color: option.color,
          }))}
          optionRender={(option) => (
            <span>
              {option.data.color && (
                <span
                  style={{
                    display: 'inline-block',
                    width: 8,
                    height: 8,
                    borderRadius: 4,
                    marginRight: 6,
                    background: option.data.color,
                  }}
                />
              )}
              {option.label}
            </span>
          )}
          onChange={(next) => onChange(Array.isArray(next) && next.length === 0 ? undefined : next)}
        />
      );
    case 'region':
      return (
        <RegionEditor level={field.options.level} value={value} onChange={onChange} testId={testId} status={status} />
      );
    case 'relation':
      return <RelationInput field={field} value={value} onChange={onChange} testId={testId} />;
    case 'file':
    case 'image':
    case 'imageCard':
    case 'video':
    case 'audio':
      return <MediaInput field={field} value={value} onChange={onChange} testId={testId} />;
    case 'subTable':
      return <SubTableInput field={field} value={value} onChange={onChange} testId={testId} />;
    case 'autoNumber':
    case 'formula':
    case 'lookup':
    case 'user':
      return (
        <Typography.Text type="secondary" data-testid={testId}>
          {value === undefined || value === null ? t('designer.rec.computed') : String(value)}
        </Typography.Text>
      );
  }
}

/** The editors a sub-table column may use (a column is any type but a sub-table). */
export type ColumnEditorField = ColumnField;
export const typeLabel = (t: ReturnType<typeof useTranslation>['t'], field: Field) =>
  dynamicText(t, `designer.type.${field.type}`, field.type);
