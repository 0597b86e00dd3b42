import { lazy, Suspense } from 'react';

const TaskNotifications = lazy(() => import('.').then((module) => ({ default: module.TaskNotifications })));

/** The task notifications in a chunk of their own: no page waits for the websocket client to load. */
export function LazyTaskNotifications() {
  return (
    <Suspense fallback={null}>
      <TaskNotifications />
    </Suspense>
  );
}
