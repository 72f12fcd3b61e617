// The live events' schema in a chunk of its own (LiveCache.load): zod stays off the first screen.
export { liveEventSchema } from '@cm/contracts';
