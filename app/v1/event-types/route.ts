import { EVENT_CATALOGUE, EVENT_TYPES, exampleEnvelope } from '@/lib/events/catalogue';
import { defineRoute } from '@/lib/http/define-route';
import { listEventTypesContract } from './contract';

export const GET = defineRoute(listEventTypesContract, async () => ({
  data: {
    eventTypes: EVENT_TYPES.map((type) => ({ type, environment: EVENT_CATALOGUE[type].environment, meaning: EVENT_CATALOGUE[type].meaning, example: exampleEnvelope(type) })),
  },
  headers: { 'cache-control': 'public, max-age=300' },
}));
