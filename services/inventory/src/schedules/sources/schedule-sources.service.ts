import {
  BUILDING_CLASSES_PER_ROOM,
  type BuildingClassesRequest,
  ErrorCode,
  type RoomScheduleRequest,
  type ScheduleFileMessage,
  type ScheduleLocation,
  type ScheduleLocationMapping,
  type ScheduleLocationQuery,
  type ScheduleOccurrence,
  type ScheduleSource,
  type ScheduleSourceInput,
} from '@cm/contracts';
import { AppError, CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../../config';
import { found, notFound } from '../../shared/database/not-found';
import { withParent } from '../../shared/database/sql';
import { FeedFetcher } from '../feeds/feed-fetcher';
import { SchedulePoller } from '../feeds/schedule-poller';
import { formatOf, problemsText, readSchedule } from '../feeds/schedule-reader';
import { SCHEDULE_CLOCK, type ScheduleClock } from '../schedule-clock';
import { FILE_REFRESH_MS } from '../schedules-config';
import { OccurrenceRepository } from './occurrence.repository';
import { ScheduleSourceRepository } from './schedule-source.repository';

const sourceNotFound = (id: string) =>
  new AppError(
    ErrorCode.SCHEDULE_SOURCE_NOT_FOUND,
    `No class schedule with id ${id}. It may have been deleted; reload the list.`,
  );
const DAY_MS = 86_400_000;

/** Class schedules: their sources, uploaded files, the rooms' classes and the location mappings. */
@Injectable()
export class ScheduleSourcesService {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(SCHEDULE_CLOCK) private readonly clock: ScheduleClock,
    private readonly sources: ScheduleSourceRepository,
    private readonly occurrences: OccurrenceRepository,
    private readonly fetcher: FeedFetcher,
    private readonly poller: SchedulePoller,
  ) {}

  list(): Promise<ScheduleSource[]> {
    return this.sources.list(this.clock.now());
  }

  async get(id: string): Promise<ScheduleSource> {
    return found(await this.sources.get(id, this.clock.now()), () => sourceNotFound(id));
  }

  async create(input: ScheduleSourceInput): Promise<ScheduleSource> {
    await this.checkUrl(input.url);
    const id = await this.placed(input, () => this.sources.create(input, this.clock.now()));
    // A new feed is read at once rather than at the next tick.
    if (input.url) this.poller.kick();
    return this.get(id);
  }

  /** The whole form; the classes kept are placed again (the room or building may have changed). */
  async update(id: string, input: ScheduleSourceInput): Promise<ScheduleSource> {
    await this.checkUrl(input.url);
    await this.placed(input, () =>
      this.sources.transaction(async (tx) => {
        if (!(await this.sources.update(id, input, this.clock.now(), tx))) throw sourceNotFound(id);
        await this.occurrences.placeSource(id, tx);
      }),
    );
    if (input.url) this.poller.kick();
    return this.get(id);
  }

  async delete(id: string): Promise<void> {
    if (!(await this.sources.delete(id))) throw sourceNotFound(id);
  }

  /**
   * An uploaded timetable replaces the schedule's classes, or, when any line of it has an error,
   * is refused whole (422, each error by its line) and the classes in use are kept.
   */
  async uploadFile({ id, fileName, text }: ScheduleFileMessage): Promise<ScheduleSource> {
    const now = this.clock.now();
    await this.sources.transaction(async (tx) => {
      await this.occurrences.lockPlaces(id, tx);
      const source = found(await this.sources.calendarOf(id, tx), () => sourceNotFound(id));
      if (source.url)
        throw new AppError(
          ErrorCode.SCHEDULE_IS_FEED,
          'This schedule is read from its feed URL. Remove the URL (edit the schedule) to upload files to it instead.',
        );
      const format = formatOf(text);
      const read = readSchedule(text, format, now, this.config.SCHEDULE_TIME_ZONE);
      if (read.problems.length > 0)
        throw new AppError(
          ErrorCode.SCHEDULE_FILE_INVALID,
          `The ${format === 'ics' ? 'calendar' : 'CSV'} file has errors, so it was not used (the schedule in use is kept): ${problemsText(read.problems)}. Fix these lines and upload it again.`,
          read.problems.map((p) => ({ path: `line ${p.line}`, message: p.message })),
        );
      await this.sources.saveFile(id, { text, format, fileName, problems: [] }, now, FILE_REFRESH_MS, tx);
      await this.occurrences.replace(id, read.occurrences, tx);
    });
    return this.get(id);
  }

  async roomSchedule({ roomId, from, to }: RoomScheduleRequest): Promise<ScheduleOccurrence[]> {
    if (!(await this.occurrences.roomExists(roomId))) throw notFound.room(roomId);
    const start = from ? new Date(from) : this.clock.now();
    const end = to ? new Date(to) : new Date(start.getTime() + DAY_MS);
    return this.occurrences.forRoom(roomId, start, end);
  }

  async buildingClasses({ buildingId, from, to }: BuildingClassesRequest): Promise<ScheduleOccurrence[]> {
    if (!(await this.occurrences.buildingExists(buildingId))) throw notFound.building(buildingId);
    const start = from ? new Date(from) : this.clock.now();
    const end = to ? new Date(to) : new Date(start.getTime() + DAY_MS);
    return this.occurrences.forBuilding(buildingId, start, end, BUILDING_CLASSES_PER_ROOM);
  }

  locations(query: ScheduleLocationQuery): Promise<ScheduleLocation[]> {
    return this.occurrences.locations(this.clock.now(), { unmatched: query.unmatched === 'true' });
  }

  async map({ location, roomId }: ScheduleLocationMapping): Promise<ScheduleLocation> {
    await withParent(
      () => this.occurrences.transaction((tx) => this.occurrences.map(location, roomId, tx)),
      () => notFound.room(roomId ?? ''),
    );
    const [listed] = await this.occurrences.locations(this.clock.now(), { location });
    return (
      listed ?? {
        location: location.trim(),
        roomId,
        matchedBy: roomId ? 'mapping' : null,
        sourceIds: [],
        occurrences: 0,
      }
    );
  }

  private async checkUrl(url: string | null): Promise<void> {
    const refused = url && (await this.fetcher.refusal(url));
    if (refused) throw new AppError(ErrorCode.SCHEDULE_URL_REFUSED, refused);
  }

  /** A write naming a room or building that is not there is that one's 404. */
  private placed<T>(input: ScheduleSourceInput, write: () => Promise<T>): Promise<T> {
    return withParent(write, () =>
      input.roomId ? notFound.room(input.roomId) : notFound.building(input.buildingId!),
    );
  }
}
