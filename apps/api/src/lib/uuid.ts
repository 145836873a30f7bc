const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A public id in uuid form (any case): anything else names nothing and is refused before a query. */
export const isUuid = (value: string): boolean => UUID.test(value);
