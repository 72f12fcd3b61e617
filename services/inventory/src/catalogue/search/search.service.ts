import { SEARCH_LIMIT, type SearchQuery, type SearchResult } from '@cm/contracts';
import { Injectable } from '@nestjs/common';
import { containsPattern, SearchRepository } from './search.repository';

const group = <T>(rows: T[]) => ({ items: rows.slice(0, SEARCH_LIMIT), more: rows.length > SEARCH_LIMIT });

@Injectable()
export class SearchService {
  constructor(private readonly repository: SearchRepository) {}

  async search({ q }: SearchQuery): Promise<SearchResult> {
    const pattern = containsPattern(q);
    const [buildings, rooms, equipment] = await Promise.all([
      this.repository.buildings(pattern, SEARCH_LIMIT + 1),
      this.repository.rooms(pattern, SEARCH_LIMIT + 1),
      this.repository.equipment(pattern, SEARCH_LIMIT + 1),
    ]);
    return { query: q, buildings: group(buildings), rooms: group(rooms), equipment: group(equipment) };
  }
}
