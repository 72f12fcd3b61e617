import { type MessagePayload, messages } from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { ProbeService } from './probe.service';

/** The monitor's probe targets: only the monitor may ask (NATS permissions), as they carry secrets. */
@Controller()
export class ProbeTargetsMessageController {
  constructor(private readonly probes: ProbeService) {}

  @HandleMessage(messages.inventory.listProbeTargets)
  targets({ after, limit }: MessagePayload<typeof messages.inventory.listProbeTargets>) {
    return this.probes.targets(after, limit);
  }
}
