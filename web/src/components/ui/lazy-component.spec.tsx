import { act, render, screen } from '@testing-library/react';
import { userEvent } from '../../test/user-event';
import { Suspense } from 'react';
import { lazyComponent } from './lazy-component';

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
}

/** A screen's chunk that fails to load until `arrive` is called, as offline. */
function chunkThatArrivesLater() {
  let arrived = false;
  const load = jest.fn(async () => {
    if (!arrived) throw new TypeError('Failed to fetch dynamically imported module');
    return { RoomsPage: ({ name }: { name: string }) => <h1>Rooms of {name}</h1> };
  });
  return { load, arrive: () => (arrived = true) };
}

/** Renders a lazily loaded Rooms screen whose chunk arrives only when `arrive` is called. */
function renderScreen(name: string) {
  const chunk = chunkThatArrivesLater();
  const RoomsPage = lazyComponent(chunk.load, (m) => m.RoomsPage);
  render(
    <Suspense fallback="loading">
      <RoomsPage name={name} />
    </Suspense>,
  );
  return chunk;
}

describe(lazyComponent.name, () => {
  const realFetch = global.fetch;
  afterEach(() => {
    global.fetch = realFetch;
    sessionStorage.clear();
    setOnline(true);
  });

  it('says offline instead of reloading, and opens the screen on Retry', async () => {
    setOnline(false);
    const chunk = renderScreen('Science Hall');
    expect(await screen.findByText('You are offline')).toBeInTheDocument();
    expect(screen.getByText('This screen opens when you are back online.')).toBeInTheDocument();

    chunk.arrive();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Rooms of Science Hall' })).toBeInTheDocument();
  });

  it('opens the screen by itself when the connection is back', async () => {
    setOnline(false);
    const chunk = renderScreen('Library');
    await screen.findByText('You are offline');
    chunk.arrive();
    global.fetch = jest.fn(async () => ({ ok: true, status: 200 })) as unknown as typeof fetch;
    setOnline(true);
    expect(await screen.findByRole('heading', { name: 'Rooms of Library' })).toBeInTheDocument();
  });

  it('counts a server that does not answer as offline, even when the browser says online', async () => {
    global.fetch = jest.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    renderScreen('Library');
    expect(await screen.findByText('You are offline')).toBeInTheDocument();
    expect(global.fetch).toHaveBeenCalledWith('/api/healthz', expect.objectContaining({ cache: 'no-store' }));
  });

  it('shows the failure when the server answers and the page was already reloaded for it', async () => {
    global.fetch = jest.fn(async () => ({ ok: true, status: 200 })) as unknown as typeof fetch;
    sessionStorage.setItem('cm-reloaded-for-new-release', String(Date.now()));
    const chunk = renderScreen('Library');
    expect(
      await screen.findByText('This screen could not be loaded: Failed to fetch dynamically imported module'),
    ).toBeInTheDocument();
    chunk.arrive();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Rooms of Library' })).toBeInTheDocument();
  });

  it('draws preloaded code in the same render, without showing the fallback', async () => {
    const Form = lazyComponent(
      async () => ({ Form: () => <p>Room Name</p> }),
      (m) => m.Form,
    );
    Form.preload();
    await act(async () => {});
    render(
      <Suspense fallback="loading">
        <Form />
      </Suspense>,
    );
    expect(screen.getByText('Room Name')).toBeInTheDocument();
    expect(screen.queryByText('loading')).not.toBeInTheDocument();
  });
});
