import { type AlertMessage } from './alert-rules';
import { withClass } from './class-urgency';

const lesson = {
  title: 'PHYS 101',
  startsAt: '2026-03-02T09:00:00.000Z',
  endsAt: '2026-03-02T10:15:00.000Z',
};
const message = (kind: AlertMessage['kind']): AlertMessage => ({ kind, text: 'Room 204, Science Hall: …' });

describe('withClass', () => {
  it('marks a problem in a room with a class urgent, naming the class', () => {
    expect(withClass(message('alert.opened'), lesson)).toEqual({
      ...message('alert.opened'),
      class: lesson,
      urgent: true,
    });
    expect(withClass(message('fault.opened'), lesson)).toMatchObject({ urgent: true });
  });

  it('names the class in a recovery without making it urgent, and leaves a room without one alone', () => {
    expect(withClass(message('alert.recovered'), lesson)).toEqual({
      ...message('alert.recovered'),
      class: lesson,
    });
    expect(withClass(message('alert.opened'), null)).toEqual(message('alert.opened'));
  });
});
