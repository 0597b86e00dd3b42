/** Card or list view, remembered per user name in localStorage (console.md §9). */
export type ProjectViewMode = 'card' | 'list';

export const viewModeKey = (username: string) => `gantry.projectView.${username}`;

export function readViewMode(username: string): ProjectViewMode {
  try {
    return localStorage.getItem(viewModeKey(username)) === 'list' ? 'list' : 'card';
  } catch {
    return 'card';
  }
}

export function writeViewMode(username: string, mode: ProjectViewMode): void {
  try {
    localStorage.setItem(viewModeKey(username), mode);
  } catch {
    // storage unavailable
  }
}
