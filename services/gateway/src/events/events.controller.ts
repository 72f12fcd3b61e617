import { apiRoutes } from '@cm/contracts';
import { Controller, Req, Res } from '@nestjs/common';
import { type Response } from 'express';
import { type SignedInRequest } from '../identity/current-user';
import { ApiRoute } from '../http/api-route.decorator';
import { EventStreams } from './event-streams.service';

@Controller()
export class EventsController {
  constructor(private readonly streams: EventStreams) {}

  /** Held open: the response is the stream, written as events come. */
  @ApiRoute(apiRoutes.liveEvents)
  open(@Req() req: SignedInRequest, @Res() res: Response): Promise<void> {
    return this.streams.open(req, res);
  }
}
