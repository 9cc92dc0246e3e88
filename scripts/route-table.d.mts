/** The source of app/v1/route-table.ts that the route files make. */
export function routeTableSource(): string;
/** Writes app/v1/route-table.ts when it differs from what the route files make; true when it wrote. */
export function writeRouteTable(): boolean;
