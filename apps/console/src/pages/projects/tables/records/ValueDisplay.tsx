import { type Field, isMediaFile, isRecord, MEDIA_URL_PREFIX, type MediaFile } from '@gantry/shared';
import { Rate, Space, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { mediaFileUrl } from '../../../../services/media';
import { RegionText } from './regions';

function formatNumber(value: number, format: string, decimals: number | undefined): string {
  if (format === 'percent') return `${(value * 100).toFixed(Math.max(0, (decimals ?? 0) - 2))}%`;
  if (format === 'perMille') return `${(value * 1000).toFixed(Math.max(0, (decimals ?? 0) - 3))}‰`;
  return decimals === undefined ? String(value) : value.toFixed(decimals);
}

/** A value as the list and the detail show it, by its field's type (issue 16 §1: each type's display). */
export function ValueDisplay({ field, value }: { field: Field; value: unknown }): ReactNode {
  const { t } = useTranslation();
  const { id: projectId = '' } = useParams();
  // A file of the project's media library opens through the download call (an image inline).
  const href = (file: MediaFile, inline: boolean) =>
    file.url.startsWith(MEDIA_URL_PREFIX)
      ? mediaFileUrl(projectId, file.url.slice(MEDIA_URL_PREFIX.length), inline)
      : file.url;
  // A yes/no field never set is a no (a switch left off): 否, not a blank cell.
  if (field.type === 'boolean') return value === true ? t('designer.rec.yes') : t('designer.rec.no');
  if (value === undefined || value === null || value === '') return null;
  switch (field.type) {
    case 'text':
      return field.options.kind === 'password' ? '••••••' : String(value);
    case 'number':
      return typeof value === 'number'
        ? `${formatNumber(value, field.options.format, field.options.decimals)}${field.options.unit ? ` ${field.options.unit}` : ''}`
        : String(value);
    case 'rating':
      return <Rate disabled count={field.options.max} value={Number(value)} style={{ fontSize: 12 }} />;
    case 'select':
    case 'multiSelect': {
      const chosen = Array.isArray(value) ? value.map(String) : [String(value)];
      return (
        <Space size={2} wrap>
          {chosen.map((item) => {
            const option = field.options.options.find((candidate) => candidate.value === item);
            return (
              <Tag key={item} color={option?.color}>
                {option?.label || item}
              </Tag>
            );
          })}
        </Space>
      );
    }
    case 'dateRange':
      return Array.isArray(value) ? value.join(' ~ ') : String(value);
    case 'region':
      return Array.isArray(value) ? <RegionText codes={value.map(String)} /> : String(value);
    case 'location': {
      const place = isRecord(value) ? value : {};
      return typeof place.address === 'string' ? place.address : `${String(place.lng)}, ${String(place.lat)}`;
    }
    case 'link':
      return (
        <a href={String(value)} target="_blank" rel="noopener noreferrer">
          {String(value)}
        </a>
      );
    case 'image':
    case 'imageCard':
    case 'file':
    case 'video':
    case 'audio': {
      const files = Array.isArray(value) ? value.filter(isMediaFile) : [];
      return (
        <Space size={4} wrap>
          {files.map((file) =>
            field.type === 'image' || field.type === 'imageCard' ? (
              <a key={file.url} href={href(file, true)} target="_blank" rel="noopener noreferrer" title={file.name}>
                <img
                  src={href(file, true)}
                  alt={file.name}
                  style={{
                    maxWidth: Math.min(field.options.previewWidth, 48),
                    maxHeight: Math.min(field.options.previewHeight, 48),
                    objectFit: 'cover',
                  }}
                />
              </a>
            ) : (
              <a key={file.url} href={href(file, false)} target="_blank" rel="noopener noreferrer">
                {file.name}
              </a>
            ),
          )}
        </Space>
      );
    }
    case 'subTable':
      return Array.isArray(value)
        ? `${value.length} × ${field.options.fields.map((column) => column.title).join(' / ')}`
        : '';
    case 'byteArray':
      return `${Math.floor((String(value).length * 3) / 4)} B`;
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}
