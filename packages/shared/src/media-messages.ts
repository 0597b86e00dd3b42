import type { Language } from './validations.js';

/**
 * Messages of the media library (path rules, file problems): part of MESSAGES for the server; the
 * console loads them with the media page, not with every route.
 */
export const MEDIA_MESSAGES = {
  'media.pathInvalid': { zh_Hans: '路径不允许：{{path}}（{{reason}}）', en: 'Path not allowed: {{path}} ({{reason}})' },
  'media.reason.empty': { zh_Hans: '路径为空', en: 'the path is empty' },
  'media.reason.tooLong': { zh_Hans: '路径超过 1024 个字符', en: 'the path is longer than 1024 characters' },
  'media.reason.tooDeep': { zh_Hans: '文件夹层级超过 32 层', en: 'more than 32 folders deep' },
  'media.reason.absolute': {
    zh_Hans: '不能使用绝对路径（以 / 或盘符开头）',
    en: 'absolute paths (starting with / or a drive letter) are not allowed',
  },
  'media.reason.backslash': { zh_Hans: '不能包含反斜杠 \\', en: 'backslashes (\\) are not allowed' },
  'media.reason.emptySegment': { zh_Hans: '名称不能为空（// 或结尾的 /）', en: 'a name is empty (// or a trailing /)' },
  'media.reason.dotSegment': { zh_Hans: '名称不能是 . 或 ..', en: 'a name may not be . or ..' },
  'media.reason.control': { zh_Hans: '名称不能包含控制字符', en: 'names may not contain control characters' },
  'media.reason.forbiddenCharacter': {
    zh_Hans: '名称不能包含 < > : " | ? *',
    en: 'names may not contain < > : " | ? *',
  },
  'media.reason.trailingDotOrSpace': {
    zh_Hans: '名称不能以点或空格结尾',
    en: 'names may not end with a dot or a space',
  },
  'media.reason.reservedName': {
    zh_Hans: '保留名称（如 CON、NUL、COM1、LPT1）不能使用',
    en: 'reserved names (such as CON, NUL, COM1, LPT1) are not allowed',
  },
  'media.reason.nameTooLong': { zh_Hans: '名称超过 255 字节', en: 'a name is longer than 255 bytes' },
  'media.reason.symlink': {
    zh_Hans: '路径经过符号链接，不允许访问',
    en: 'the path goes through a symbolic link, which is never followed',
  },
  'media.reason.publicRoot': {
    zh_Hans: 'public 是公共资源文件夹的保留名称',
    en: "'public' is the name of the public folder, reserved at the top level",
  },
  'media.notFound': { zh_Hans: '文件或文件夹不存在：{{path}}', en: 'No such file or folder: {{path}}' },
  'media.exists': { zh_Hans: '已存在同名文件或文件夹：{{path}}', en: 'A file or folder of that name exists: {{path}}' },
  'media.notFolder': { zh_Hans: '不是文件夹：{{path}}', en: 'Not a folder: {{path}}' },
  'media.notFile': { zh_Hans: '不是文件：{{path}}', en: 'Not a file: {{path}}' },
  'media.fileTooLarge': {
    zh_Hans: '文件超过上限 {{max}} 字节',
    en: 'The file is larger than the limit of {{max}} bytes',
  },
  'media.tooManyFiles': { zh_Hans: '一次最多上传 {{max}} 个文件', en: 'At most {{max}} files per upload' },
  'media.publicDenied': {
    zh_Hans: '公共资源文件夹不允许此操作（{{feature}}）',
    en: 'This is not allowed in the public folder ({{feature}})',
  },
  'media.moveIntoItself': { zh_Hans: '不能把文件夹移动到它自己里面', en: 'A folder cannot be moved into itself' },
  'media.crossArea': {
    zh_Hans: '不能在项目文件夹和公共资源文件夹之间移动',
    en: 'Files cannot be moved between the project and the public folder',
  },
} as const satisfies Record<string, Record<Language, string>>;
