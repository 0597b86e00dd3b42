/** Where Use goes: the project form with the template chosen (projectType 'choose solution template'). */
export const templateUsePath = (id: string) => `/app/model/Project/add?type=${encodeURIComponent(id)}`;
