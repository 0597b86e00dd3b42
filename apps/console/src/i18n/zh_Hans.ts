import { licenceZh } from './licence.zh_Hans';
import { mediaZh } from './media.zh_Hans';
import { projectsZh } from './projects.zh_Hans';
import { tenantsZh } from './tenants.zh_Hans';

/** Console strings, simplified Chinese (the default language). Keys are flat: `keySeparator` is off. */
export const zh_Hans = {
  'app.defaultName': 'Gantry',
  'app.loading': '加载中…',

  'common.save': '保存',
  'common.submit': '提交',
  'common.reload': '重新加载',
  'common.backHome': '返回首页',
  'common.yes': '是',
  'common.no': '否',

  'request.accessDenied': '访问被拒绝',
  'request.updateLicence': '请您更新授权：',
  'request.showDetails': '显示详情',
  'request.hideDetails': '隐藏详情',
  'request.detailCode': '错误码',
  'request.detailStatus': '状态码',
  'request.detailPath': '请求路径',
  'request.network': '网络错误，请检查网络连接',
  'request.failed': '请求失败',

  'login.title': '空间管理',
  'login.username': '用户名',
  'login.usernameRequired': '请输入用户名',
  'login.password': '密码',
  'login.remember': '记住我',
  'login.code': '验证码',
  'login.codeImage': '验证码图片，点击更换',
  'login.showPassword': '显示密码',
  'login.hidePassword': '隐藏密码',
  'login.submit': '登录',
  'login.failed': '登录出错，请联系系统管理员',

  'regest.title': '设置管理员密码',
  'regest.subtitle': '首次使用，请为管理员账号 admin 设置密码',
  'regest.password': '密码',
  'regest.password1': '确认密码',
  'regest.submit': '注册',
  'regest.toLogin': '已设置密码？去登录',

  'strength.label': '密码强度',
  'strength.weak': '弱',
  'strength.medium': '中',
  'strength.strong': '强',
  'strength.best': '极好',

  'menu.dashboard': '首页',
  'menu.projects': '项目管理',
  'menu.myProjects': '我的项目',
  'menu.tenants': '租户管理',
  'menu.licence': '授权管理',
  'menu.settings': '系统设置',
  'menu.settingsBasic': '基础设置',
  'menu.settingsProject': '项目扩展',
  'menu.crossRequest': '跨域设置',
  'menu.retention': '时序存储策略',
  'menu.ftpStorage': 'FTP 存储',
  'menu.help': '帮助文档',
  'menu.changePassword': '修改密码',
  'menu.userCenter': '个人中心',
  'menu.logout': '退出登录',
  'menu.language': '语言',

  'language.zh_Hans': '简体中文',
  'language.en': 'English',

  'dashboard.welcome': '欢迎，{{name}}',
  'dashboard.intro': '这里是 {{product}} 的管理控制台。',
  'dashboard.roleAdmin': '平台管理员',
  'dashboard.roleTenant': '租户',

  // tenants, table preferences, dashboard, audit
  ...tenantsZh,

  'changePassword.title': '修改密码',
  'changePassword.old': '原密码',
  'changePassword.new': '新密码',
  'changePassword.new2': '确认新密码',
  'changePassword.submit': '确认修改',

  'userCenter.title': '个人中心',
  'userCenter.id': 'ID',
  'userCenter.username': '用户名',
  'userCenter.name': '名称',
  'userCenter.userId': '用户标识',
  'userCenter.isAdmin': '平台管理员',
  'userCenter.expiresAt': '登录有效期至',

  'settings.title': '基础设置',
  'settings.sectionBasic': '基本信息',
  'settings.sectionSecurity': '登录安全策略',
  'settings.sectionMedia': '媒体库',
  'settings.name': '系统名称',
  'settings.copyright': '版权信息',
  'settings.helpUrlLabel': '帮助文档地址',
  'settings.helpUrlExtra':
    '菜单“帮助文档”打开的地址。默认 /guide/ 为随系统提供的用户指南（按用户语言显示），也可填写本站路径或 http(s) 地址。',
  'settings.language': '系统语言',
  'settings.logo': '系统 Logo',
  'settings.backgroundImage': '登录背景图',
  'settings.project_logo': '项目 Logo',
  'settings.project_backgroundImage': '项目背景图',
  'settings.errorCount': '密码错误次数上限',
  'settings.errorCountHelp': '为空或 0 表示不限制',
  'settings.freezeDuration': '账号冻结时长',
  'settings.loginDuration': '登录有效期',
  'settings.loginDurationHelp': '以分钟为单位时最少 10 分钟',
  'settings.captchaMode': '登录验证码',
  'settings.captcha.off': '关闭',
  'settings.captcha.afterFailure': '登录失败后需要',
  'settings.captcha.always': '始终需要',
  'settings.publicDir': '公共资源文件夹',
  'settings.publicDirHelp': '开启后各项目媒体库中出现公共文件夹',
  'settings.publicDirFeature': '子文件夹及文件权限',
  'settings.feature.mkDir': '新建文件夹',
  'settings.feature.upload': '上传',
  'settings.feature.modify': '修改',
  'settings.feature.delete': '删除',

  'retention.title': '时序数据存储策略',
  'retention.duration': '数据保留时长',
  'retention.days': '相当于 {{days}} 天',
  'retention.help': '超过保留时长的时序数据将被清理',
  'task.pause': '暂停',
  'task.type.data.retention': '时序数据清理',
  'retention.lastRun': '最近一次清理',
  'retention.runNow': '立即清理',
  'retention.started': '清理已开始',
  'retention.status': '状态',
  'retention.status.ongoing': '进行中',
  'retention.status.pause': '已暂停',
  'retention.status.success': '已完成',
  'retention.status.failed': '失败',
  'retention.startTime': '开始时间',
  'retention.endTime': '结束时间',
  'retention.result': '结果',
  'retention.never': '尚未运行（每小时运行一次）',

  'cors.title': '跨域设置',
  'cors.enable': '允许跨域访问',
  'cors.help': '开启后，其他来源的浏览器页面可以调用平台后端接口。',

  'upload.button': '上传图片',
  'upload.remove': '移除',
  'upload.tooLarge': '图片不能超过 {{size}} MB',

  'duration.count': '数量',
  'duration.unit': '单位',

  'exception.noPermission': '您没有查看该页面权限',
  'exception.notFound': '您访问的页面不存在',
  'exception.comingSoon': '功能开发中，敬请期待',

  // projects, grant form, opening sites
  ...projectsZh,

  // licence information, upload wizard, value-added services, licence history
  ...licenceZh,
  ...mediaZh,
} as const;

export type ConsoleKey = keyof typeof zh_Hans;
