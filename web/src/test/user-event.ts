import base, { type Options } from '@testing-library/user-event';

/**
 * user-event as the tests use it, without its pause between keystrokes and pointer moves: `delay: 0`
 * (its default) still waits a timer turn for each, and a form's typing then took seconds of a test
 * on a busy two-core machine. Each call sets up afresh, as user-event's own direct calls do.
 */
const quick: Options = { delay: null };

export const userEvent = {
  setup: (options?: Options) => base.setup({ ...quick, ...options }),
  clear: (element: Element) => base.clear(element),
  click: (element: Element) => base.click(element, quick),
  type: (element: Element, text: string) => base.type(element, text, quick),
  keyboard: (text: string) => base.keyboard(text, quick),
  paste: (data?: DataTransfer | string) => base.paste(data, quick),
  upload: (element: HTMLElement, files: File | File[]) => base.upload(element, files, quick),
  selectOptions: (select: Element, values: string | string[]) => base.selectOptions(select, values, quick),
};
