import type { Language } from '@gantry/shared';

/**
 * Template pictures drawn by code (SVG): the cover of a card (a gradient, a pictogram, the name) and,
 * for built-in templates, an overview picture of their main dashboard for the long description.
 */

export type Pictogram = 'flame' | 'derrick' | 'lamp' | 'grid';

export interface CoverInput {
  name: Record<Language, string> | string;
  colours: [string, string];
  icon: Pictogram;
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

const textOf = (name: CoverInput['name'], language: Language) => (typeof name === 'string' ? name : name[language]);

/** Colours and pictogram of a template without its own cover, by industry. */
export function industryLook(industry: string): { colours: [string, string]; icon: Pictogram } {
  switch (industry) {
    case 'heating':
      return { colours: ['#b91c1c', '#f97316'], icon: 'flame' };
    case 'oilfield':
      return { colours: ['#1e293b', '#ca8a04'], icon: 'derrick' };
    case 'smartCity':
      return { colours: ['#0f766e', '#22d3ee'], icon: 'lamp' };
    default:
      return { colours: ['#1d4ed8', '#7c3aed'], icon: 'grid' };
  }
}

const PICTOGRAMS: Record<Pictogram, string> = {
  flame:
    '<path d="M60 10 C75 35 95 45 95 75 A35 35 0 0 1 25 75 C25 55 40 45 45 30 C50 45 55 50 60 55 C65 40 62 25 60 10 Z" fill="#fff" fill-opacity="0.9"/>',
  derrick:
    '<path d="M40 110 L60 10 L80 110 M47 75 L73 75 M52 50 L68 50 M60 10 L60 110" stroke="#fff" stroke-width="6" fill="none" stroke-linejoin="round"/>',
  lamp: '<path d="M40 110 L40 30 Q40 15 60 15 L90 15" stroke="#fff" stroke-width="7" fill="none"/><path d="M78 15 L102 15 L96 30 L84 30 Z" fill="#fff"/><circle cx="90" cy="40" r="8" fill="#fde68a"/>',
  grid: '<rect x="15" y="15" width="40" height="40" rx="6" fill="#fff"/><rect x="65" y="15" width="40" height="40" rx="6" fill="#fff" fill-opacity="0.7"/><rect x="15" y="65" width="40" height="40" rx="6" fill="#fff" fill-opacity="0.7"/><rect x="65" y="65" width="40" height="40" rx="6" fill="#fff"/>',
};

/** A 480×270 card cover. */
export function coverSvg(input: CoverInput, language: Language): string {
  const [from, to] = input.colours;
  const title = escapeXml(textOf(input.name, language));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="270" viewBox="0 0 480 270">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="480" height="270" fill="url(#g)"/>
<g transform="translate(40 60) scale(1.1)">${PICTOGRAMS[input.icon]}</g>
<text x="200" y="150" font-family="sans-serif" font-size="26" font-weight="bold" fill="#fff">${title}</text>
</svg>
`;
}

/** A 960×540 picture of a dashboard: four panels, the first a line chart of `series`. */
export function overviewSvg(input: CoverInput, series: readonly number[], language: Language): string {
  const [from] = input.colours;
  const min = Math.min(...series, 0);
  const max = Math.max(...series, 1);
  const points = series
    .map((value, i) => {
      const x = 40 + (i * 400) / Math.max(1, series.length - 1);
      const y = 230 - ((value - min) / (max - min || 1)) * 160;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
  const bars = series
    .slice(0, 12)
    .map((value, i) => {
      const height = ((value - min) / (max - min || 1)) * 150 + 10;
      return `<rect x="${520 + i * 32}" y="${470 - height}" width="20" height="${height.toFixed(1)}" fill="${from}"/>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="540" viewBox="0 0 960 540">
<rect width="960" height="540" fill="#0b1220"/>
<text x="20" y="30" font-family="sans-serif" font-size="20" fill="#e2e8f0">${escapeXml(textOf(input.name, language))}</text>
<rect x="20" y="50" width="440" height="210" rx="8" fill="#111a2e"/>
<polyline points="${points}" fill="none" stroke="${from}" stroke-width="3"/>
<rect x="500" y="50" width="440" height="210" rx="8" fill="#111a2e"/>
<circle cx="720" cy="155" r="70" fill="none" stroke="#334155" stroke-width="18"/>
<path d="M650 155 A70 70 0 0 1 775 110" fill="none" stroke="${from}" stroke-width="18"/>
<rect x="20" y="290" width="440" height="210" rx="8" fill="#111a2e"/>
${[0, 1, 2, 3, 4].map((row) => `<rect x="40" y="${315 + row * 36}" width="400" height="22" rx="3" fill="#1e293b"/>`).join('')}
<rect x="500" y="290" width="440" height="210" rx="8" fill="#111a2e"/>
${bars}
</svg>
`;
}
