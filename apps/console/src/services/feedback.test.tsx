import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { message } from 'antd';
import { useNavigate } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { Root } from '../app/Root';
import { mockFetch, renderRoutes } from '../test/utils';
import { openToasts, toast } from './feedback';

/** A page with buttons that toast and navigate, the way pages and the request layer do. */
function Page({ name }: { name: string }) {
  const navigate = useNavigate();
  return (
    <div data-testid={`page-${name}`}>
      <button type="button" onClick={() => toast.error(`error on ${name}`)}>
        error
      </button>
      <button type="button" onClick={() => toast.warning(`warning on ${name}`)}>
        warning
      </button>
      <button type="button" onClick={() => toast.success(`done on ${name}`)}>
        success
      </button>
      <button type="button" onClick={() => void navigate(name === 'a' ? '/login' : '/a')}>
        go
      </button>
      <button
        type="button"
        onClick={() => {
          toast.success('saved, sign in again');
          void navigate('/login');
        }}
      >
        success-and-go
      </button>
    </div>
  );
}

function renderApp() {
  // the admin check and the settings answer; nothing else is asked
  mockFetch(() => ({ body: {} }));
  return renderRoutes(
    [
      {
        element: <Root />,
        children: [
          { path: '/a', element: <Page name="a" /> },
          { path: '/login', element: <Page name="login" /> },
        ],
      },
    ],
    '/a',
  );
}

/** The toasts on screen: happy-dom runs no CSS animation, so a closed toast keeps its leave class. */
const visible = () =>
  [...document.querySelectorAll('.ant-message-notice')]
    .filter((notice) => !/-leave\b/.test(notice.className))
    .map((notice) => notice.textContent ?? '');
const shown = (text: string) => visible().includes(text);

// successes are shown by antd's static message, which outlives a test's render
afterEach(() => message.destroy());

describe('toasts that no longer apply go (issue 10)', () => {
  it('an error shown on a page closes when the route changes', async () => {
    renderApp();
    fireEvent.click(await screen.findByText('error'));
    await waitFor(() => expect(shown('error on a')).toBe(true));
    fireEvent.click(screen.getByText('go'));
    await screen.findByTestId('page-login');
    await waitFor(() => expect(shown('error on a')).toBe(false));
    expect(openToasts()).toEqual([]);
  });

  it('a success that led to the new page stays there', async () => {
    renderApp();
    fireEvent.click(await screen.findByText('warning'));
    await waitFor(() => expect(shown('warning on a')).toBe(true));
    fireEvent.click(screen.getByText('success-and-go'));
    await screen.findByTestId('page-login');
    await waitFor(() => expect(shown('warning on a')).toBe(false));
    await waitFor(() => expect(shown('saved, sign in again')).toBe(true));
  });

  it('a success on the same page leaves its errors (a partly failed action)', async () => {
    renderApp();
    fireEvent.click(await screen.findByText('error'));
    await waitFor(() => expect(shown('error on a')).toBe(true));
    fireEvent.click(screen.getByText('success'));
    await waitFor(() => expect(shown('done on a')).toBe(true));
    expect(shown('error on a')).toBe(true);
  });

  it('the same message twice is one toast', async () => {
    renderApp();
    fireEvent.click(await screen.findByText('error'));
    fireEvent.click(screen.getByText('error'));
    await waitFor(() => expect(visible()).toEqual(['error on a']));
    expect(openToasts().filter((open) => open.kind === 'error')).toHaveLength(1);
  });

  it('a toast about another route (the admin-missing warning, shown before going to /regest) waits for it', async () => {
    const view = renderApp();
    await screen.findByTestId('page-a');
    act(() => toast.warning('about login', { route: '/login' }));
    await waitFor(() => expect(shown('about login')).toBe(true));
    await act(() => view.router.navigate('/login'));
    await screen.findByTestId('page-login');
    expect(shown('about login')).toBe(true);
    await act(() => view.router.navigate('/a'));
    await waitFor(() => expect(shown('about login')).toBe(false));
  });

  it("each kind stays its time: the server's errors 13 s, successes 1.5 s, the console's pop-up messages 3 s", async () => {
    renderApp();
    await screen.findByTestId('page-a');
    act(() => {
      toast.error('refused by the server');
      toast.success('saved');
      toast.warning('请先设置admin密码，才可以登录！');
      toast.hint('the name is too long');
    });
    expect(openToasts().map(({ kind, seconds }) => [kind, seconds])).toEqual([
      ['error', 13],
      ['success', 1.5],
      ['warning', 3],
      ['error', 3],
    ]);
  });
});
