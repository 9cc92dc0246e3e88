import { EVENT_TYPES } from '@/lib/events/event-types';
import { EVENT_CATALOGUE, exampleEnvelope } from '@/lib/event-catalogue/catalogue';
import { defineRoute } from '@/lib/http/define-route';
import { listEventTypesContract } from './contract';

export const GET = defineRoute(listEventTypesContract, async () => ({
  data: {
    eventTypes: EVENT_TYPES.map((type) => ({ type, environment: EVENT_CATALOGUE[type].environment, meaning: EVENT_CATALOGUE[type].meaning, example: exampleEnvelope(type) })),
  },
  headers: { 'cache-control': 'public, max-age=300' },
}));
