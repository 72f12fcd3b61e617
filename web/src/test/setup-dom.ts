import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// jsdom lacks these browser APIs that Radix UI primitives call.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
HTMLElement.prototype.scrollIntoView ??= () => {};
HTMLElement.prototype.hasPointerCapture ??= () => false;
HTMLElement.prototype.releasePointerCapture ??= () => {};
// jsdom has them but only reports "Not implemented": the toaster scrolls a field clear of toasts,
// and a long list's window scrolls to keep its place.
window.scrollBy = () => {};
window.scrollTo = () => {};

// Typing a few words with user-event takes seconds on a busy two-core machine, and so can a
// screen's first draw: findBy… and waitFor wait up to 5 s (not 1) for what they look for.
jest.setTimeout(20_000);
configure({ asyncUtilTimeout: 5_000 });

// Forms keep drafts in localStorage: each test starts with none, as a fresh browser would.
beforeEach(() => localStorage.clear());
