import { Module } from '@nestjs/common';
import { RoomLive } from './room-live';
import { RoomRepository } from './room.repository';
import { RoomsMessageController } from './rooms.message.controller';
import { RoomsService } from './rooms.service';

@Module({ controllers: [RoomsMessageController], providers: [RoomRepository, RoomsService, RoomLive] })
export class RoomsModule {}
